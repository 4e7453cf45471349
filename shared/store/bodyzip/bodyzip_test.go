package bodyzip

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"
)

// The dictionary is part of the stored format: changing it would make
// every stored frame unreadable. A better dictionary gets a new id.
func TestDictionaryNeverChanges(t *testing.T) {
	sum := sha256.Sum256(dict1)
	if got := hex.EncodeToString(sum[:]); got != dict1SHA256 {
		t.Fatalf("dict1.txt changed (sha256 %s): stored frames name it by id 1 and would not decode; add a new dictionary instead", got)
	}
}

const dict1SHA256 = "38f2cdea078aba5a61d8cf70b11015775fd91050507efbc3daf428ae198a1a1c"

// Stored bodies as the write path makes them (keys sorted, stamps added).
var samples = map[string]string{
	"customer 1 KB": `{"addresses":[{"city":"São Paulo","complement":"Galpão 3","description":"Matriz","main":true,"neighborhood":"Vila Industrial","number":"1234","state":"SP","street":"Rua das Oficinas","zip_code":"04567-000"}],"cnpj":"12.345.678/0001-90","company_name":"Irmãos Souza Manutenção Ltda","created_at":"2026-05-04T12:00:00.000Z","created_by":{"_id":"usr-4f1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e","label":"Ana Souza"},"email":"contato@irmaossouza.com.br","job_title":"Gerente de compras","klass":"Customer","name":"Oficina Mecânica Irmãos Souza 1","notes":"Cliente desde 2019. Prefere atendimento pela manhã e retirada no balcão. Frota de 12 veículos leves e 3 utilitários; revisões a cada 10.000 km. Pagamento por boleto com 28 dias. Contato secundário: Márcia, do financeiro, ramal 214. Não autorizar serviços acima de R$ 2.000 sem aprovação por e-mail.","phones":[{"description":"Recepção","main":true,"number":"+55 11 3456-7890"},{"description":"Márcia (financeiro)","main":false,"number":"+55 11 98765-4321"}],"short_name":"Irmãos Souza","site":"https://irmaossouza.com.br","state_registration":"123.456.789.110","updated_at":"2026-05-04T12:00:00.000Z","updated_by":{"_id":"usr-4f1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e","label":"Ana Souza"}}`,
	"ticket":        `{"content":"Troca de embreagem\nCliente relata ruído ao engatar a primeira marcha.","created_at":"2026-05-04T12:00:00.000Z","created_by":{"_id":"usr-4f1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e","label":"Ana Souza"},"customer_id":"cus-0a1b2c3d4e5f60718293a4b5c6d7e8f9","klass":"Ticket","number":1042,"priority":"high","status":"open","status_at":"2026-05-04T12:00:00.000Z","title":"Troca de embreagem","updated_at":"2026-05-04T12:00:00.000Z","updated_by":{"_id":"usr-4f1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e","label":"Ana Souza"}}`,
	"history entry": `{"changed":["job_title"],"created_at":"2026-05-04T12:00:01.000Z","created_by":{"_id":"usr-4f1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e","label":"Ana Souza"},"event":"update","events":["update"],"item_id":"cus-0a1b2c3d4e5f60718293a4b5c6d7e8f9","item_type":"Customer","klass":"DocumentChange","label":"Oficina Mecânica Irmãos Souza 1","rev":"2-9c8b7a6f5e4d3c2b1a0f9e8d7c6b5a49","seq":42,"updated_at":"2026-05-04T12:00:01.000Z","updated_by":{"_id":"usr-4f1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e","label":"Ana Souza"},"whodunnit":{"_id":"usr-4f1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e","label":"Ana Souza"}}`,
}

func TestPackRoundTrip(t *testing.T) {
	long := `{"content":"` + strings.Repeat("<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit. ", 50) + `"}`
	cases := map[string]string{"empty": "", "tiny": `{"a":1}`, "long html": long}
	for k, v := range samples {
		cases[k] = v
	}
	for name, body := range cases {
		z := Pack([]byte(body))
		got, err := Unpack(z)
		if err != nil || !bytes.Equal(got, []byte(body)) {
			t.Fatalf("%s: round trip: %v", name, err)
		}
		if len(body) >= MinSize && len(z) >= len(body) {
			t.Errorf("%s: %d bytes packed to %d", name, len(body), len(z))
		}
		t.Logf("%-14s %5d B → %5d B (%.0f %%)", name, len(body), len(z), 100*float64(len(z))/float64(max(len(body), 1)))
	}
}

// A value that is not a frame is returned as it is; a damaged frame is an
// error, never garbage.
func TestUnpackPlainAndDamaged(t *testing.T) {
	plain := []byte(`{"klass":"Ticket"}`)
	if got, err := Unpack(plain); err != nil || !bytes.Equal(got, plain) {
		t.Fatalf("plain: %q %v", got, err)
	}
	z := Pack([]byte(samples["customer 1 KB"]))
	bad := bytes.Clone(z)
	bad[len(bad)/2] ^= 0xff
	bad = bad[:len(bad)-3]
	if _, err := Unpack(bad); err == nil {
		t.Fatal("a damaged frame decoded without error")
	}
}
