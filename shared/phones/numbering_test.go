package phones

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/nyaruka/phonenumbers"
)

// agree checks this package against libphonenumber (nyaruka/phonenumbers,
// whose metadata territories.go is generated from) on one input: the same
// parse or the same error, and then the same validity, region and forms.
func agree(t *testing.T, input, region string) bool {
	t.Helper()
	theirs, err := phonenumbers.Parse(input, region)
	ours, ok := parse(input, region)
	if (err == nil) != ok {
		t.Errorf("parse(%q, %q): ok %v, libphonenumber's error %v", input, region, ok, err)
		return false
	}
	if !ok {
		return true
	}
	got := []string{fmt.Sprint(ours.countryCode), ours.nsn(), ours.extension, fmt.Sprint(ours.valid()), ours.region(),
		ours.format(e164), ours.format(national), ours.format(international)}
	want := []string{fmt.Sprint(theirs.GetCountryCode()), phonenumbers.GetNationalSignificantNumber(theirs), theirs.GetExtension(),
		fmt.Sprint(phonenumbers.IsValidNumber(theirs)), phonenumbers.GetRegionCodeForNumber(theirs),
		phonenumbers.Format(theirs, phonenumbers.E164), phonenumbers.Format(theirs, phonenumbers.NATIONAL),
		phonenumbers.Format(theirs, phonenumbers.INTERNATIONAL)}
	if !slices.Equal(got, want) {
		t.Errorf("parse(%q, %q):\n got %q\nwant %q", input, region, got, want)
		return false
	}
	return true
}

var defaultRegions = []string{"BR", "US", "GB", "DE", "IT", "AR", "MX", "PT", "FR", "IN", "RU", "ZZ", ""}

// TestMatchesLibphonenumber runs this package and libphonenumber over
// every region's example numbers of every type, written in every form,
// read in their own region and a dozen others, then over random and
// hostile inputs.
func TestMatchesLibphonenumber(t *testing.T) {
	if got, want := supportedRegions(), phonenumbers.GetSupportedRegions(); len(got) != len(want) {
		t.Fatalf("%d regions, libphonenumber %d", len(got), len(want))
	}
	for r := range phonenumbers.GetSupportedRegions() {
		if !supportedRegions()[r] {
			t.Fatalf("region %s missing", r)
		}
	}
	types := []phonenumbers.PhoneNumberType{phonenumbers.FIXED_LINE, phonenumbers.MOBILE, phonenumbers.TOLL_FREE,
		phonenumbers.PREMIUM_RATE, phonenumbers.SHARED_COST, phonenumbers.VOIP, phonenumbers.PERSONAL_NUMBER,
		phonenumbers.PAGER, phonenumbers.UAN, phonenumbers.VOICEMAIL}
	var examples []*phonenumbers.PhoneNumber
	regions := slices.Sorted(func(yield func(string) bool) {
		for r := range phonenumbers.GetSupportedRegions() {
			if !yield(r) {
				return
			}
		}
	})
	for _, r := range regions {
		for _, typ := range types {
			if n := phonenumbers.GetExampleNumberForType(r, typ); n != nil {
				examples = append(examples, n)
			}
		}
	}
	for cc := range phonenumbers.GetSupportedGlobalNetworkCallingCodes() {
		if n := phonenumbers.GetExampleNumberForNonGeoEntity(cc); n != nil {
			examples = append(examples, n)
		}
	}
	if len(examples) < 1000 {
		t.Fatalf("%d example numbers", len(examples))
	}
	cases := 0
	for _, n := range examples {
		own := phonenumbers.GetRegionCodeForNumber(n)
		nsn := phonenumbers.GetNationalSignificantNumber(n)
		forms := []string{
			phonenumbers.Format(n, phonenumbers.E164), phonenumbers.Format(n, phonenumbers.NATIONAL),
			phonenumbers.Format(n, phonenumbers.INTERNATIONAL), phonenumbers.Format(n, phonenumbers.RFC3966),
			nsn, fmt.Sprint(n.GetCountryCode()) + nsn, "0" + nsn,
			phonenumbers.FormatOutOfCountryCallingNumber(n, "US"), phonenumbers.FormatOutOfCountryCallingNumber(n, "BR"),
			phonenumbers.Format(n, phonenumbers.NATIONAL) + " ext. 123", phonenumbers.Format(n, phonenumbers.INTERNATIONAL) + " x45#",
		}
		for _, f := range forms {
			for _, r := range append([]string{own}, defaultRegions...) {
				cases++
				if !agree(t, f, r) && t.Failed() && cases > 50 {
					t.FailNow()
				}
			}
		}
	}

	rnd := rand.New(rand.NewPCG(1, 2))
	prefixes := []string{"", "", "0", "00", "+", "011", "0xx", "(0", "+55 ", "55", "1", "+1 ", "0800", "9", "+0", "＋", "tel:+", "015 "}
	punct := []string{"", "", "", " ", "-", ".", "(", ")", "/", "–", "\u00A0"}
	for range 30000 {
		var b strings.Builder
		b.WriteString(prefixes[rnd.IntN(len(prefixes))])
		for range 1 + rnd.IntN(16) {
			b.WriteByte(byte('0' + rnd.IntN(10)))
			b.WriteString(punct[rnd.IntN(len(punct))])
		}
		switch rnd.IntN(12) {
		case 0:
			b.WriteString(" ext 42")
		case 1:
			b.WriteString(";phone-context=+55")
		case 2:
			b.WriteString("ABC")
		}
		cases++
		if !agree(t, b.String(), defaultRegions[rnd.IntN(len(defaultRegions))]) && cases > 50 {
			t.FailNow()
		}
	}

	hostile := []string{
		"", "+", "++", "+++55", "0", "00", "x", "ext. 12", "(11) 98765-4321", "(11) 98765-4321 ramal 12", "011 98765 4321",
		"0xx11 98765-4321", "0 15 11 98765-4321", "+55 0 11 98765-4321", "1-800-FLOWERS", "1-800-flowers", "0800 LINEA",
		"tel:+1-212-555-0100;phone-context=+1", "tel:212-555-0100;phone-context=example.com", "tel:555;phone-context=",
		";phone-context=+1", "tel:+1-212-555-0100;isub=12;ext=3", "+1 212 555 0100;ext=77", "٠١١ ٩٨٧٦٥ ٤٣٢١",
		"０１１ ９８７６５ ４３２１", "(١١) ٩٨٧٦٥-٤٣٢١", "+४४ २०", "2125550100 / 2125550101", "212-555-0100\\x", "+800 1234 5678",
		"+882 1234", "+979 123 456 789", "+39 06 698 12345", "+39 000", "0000000", "+44 (0) 20 7946 0000", "+7 8 800 555 35 35",
		"+54 9 11 1234 5678", "+52 1 55 1234 5678", strings.Repeat("9", 250), strings.Repeat("9", 251), strings.Repeat("(", 60) + "123",
		"<script>alert(1)</script>", "12\x00345", "\u202e5551234", "+1 (650) 253-0000 #123", "1 650 253 0000,,123", "650 253 0000;123",
	}
	for _, s := range hostile {
		for _, r := range defaultRegions {
			agree(t, s, r)
		}
	}
	t.Logf("%d example numbers; %d cases", len(examples), cases+len(hostile)*len(defaultRegions))
}

// BenchmarkNormalize reads a Brazilian mobile number typed the local way,
// with this package and with libphonenumber, side by side.
func BenchmarkNormalize(b *testing.B) {
	const typed = "(11) 98765-4321"
	b.Run("phones", func(b *testing.B) {
		for b.Loop() {
			if _, err := Normalize(typed, "BR"); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("libphonenumber", func(b *testing.B) {
		for b.Loop() {
			n, err := phonenumbers.Parse(typed, "BR")
			if err != nil || !phonenumbers.IsValidNumber(n) {
				b.Fatal(err)
			}
			_ = phonenumbers.Format(n, phonenumbers.E164)
		}
	})
}
