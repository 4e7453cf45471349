package servicedocs

import "testing"

func TestEquipmentNameSaysTheMakerOnce(t *testing.T) {
	for _, c := range []struct {
		maker, identifier, want string
	}{
		{"Samsung", "Samsung Galaxy A52", "Samsung Galaxy A52"},
		{"samsung", "SAMSUNG Galaxy A52", "SAMSUNG Galaxy A52"},
		{"Samsung", "Galaxy A52", "Samsung Galaxy A52"},
		{"LG", "LGA-100", "LG LGA-100"},
		{"", "NB-42", "NB-42"},
		{"Lenovo", "", "Lenovo"},
		{"Apple", "Apple", "Apple"},
	} {
		if got := equipmentName(map[string]any{"maker": c.maker, "identifier": c.identifier}); got != c.want {
			t.Errorf("maker %q, identifier %q: %q, want %q", c.maker, c.identifier, got, c.want)
		}
	}
}
