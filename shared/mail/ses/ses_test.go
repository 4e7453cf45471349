package ses_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/mail"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sesv2"
	"github.com/aws/aws-sdk-go-v2/service/sesv2/types"

	oficinamail "github.com/oficina/oficina/shared/mail"
	"github.com/oficina/oficina/shared/mail/ses"
)

// sendEmailRequest is the JSON body of SESv2 SendEmail
// (POST /v2/email/outbound-emails), as far as the sender fills it.
type sendEmailRequest struct {
	FromEmailAddress     string
	ConfigurationSetName string
	Destination          struct{ ToAddresses []string }
	Content              struct {
		Raw struct{ Data []byte } // base64 in JSON, decoded by encoding/json
	}
	EmailTags []struct{ Name, Value string }
}

// fakeSES is an httptest server that speaks just enough of the SESv2 REST
// API: it records each SendEmail request and answers with status/body.
type fakeSES struct {
	*httptest.Server
	mu       sync.Mutex
	requests []sendEmailRequest
	auth     []string
	status   int
	header   http.Header
	body     string
}

func newFakeSES(t *testing.T) *fakeSES {
	f := &fakeSES{status: http.StatusOK, body: `{"MessageId":"0100018e-test"}`, header: http.Header{}}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/v2/email/outbound-emails" {
			http.Error(w, `{"message":"unexpected `+r.Method+" "+r.URL.Path+`"}`, http.StatusNotFound)
			return
		}
		var req sendEmailRequest
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			t.Errorf("request body is not SendEmail JSON: %v", err)
		}
		f.mu.Lock()
		f.requests = append(f.requests, req)
		f.auth = append(f.auth, r.Header.Get("Authorization"))
		f.mu.Unlock()
		for k, v := range f.header {
			w.Header()[k] = v
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(f.status)
		io.WriteString(w, f.body)
	}))
	t.Cleanup(f.Close)
	return f
}

func (f *fakeSES) client() *sesv2.Client {
	return sesv2.New(sesv2.Options{
		Region:       "us-east-1",
		BaseEndpoint: aws.String(f.URL),
		HTTPClient:   f.Client(),
		Credentials: aws.CredentialsProviderFunc(func(context.Context) (aws.Credentials, error) {
			return aws.Credentials{AccessKeyID: "AKIDTEST", SecretAccessKey: "secret", Source: "test"}, nil
		}),
		RetryMaxAttempts: 1,
	})
}

var now = time.Date(2026, 5, 4, 13, 0, 0, 0, time.UTC)

func TestSendBuildsRawMIMEWithConfigurationSetAndTag(t *testing.T) {
	f := newFakeSES(t)
	s, err := ses.New(f.client(), ses.Options{
		From:             "Oficina <no-reply@oficina.example>",
		ConfigurationSet: "oficina-prod",
		Now:              func() time.Time { return now },
	})
	if err != nil {
		t.Fatal(err)
	}
	m := oficinamail.Message{
		To:      "Maria Conceição <maria@example.com>",
		Subject: "Confirme seu e-mail — Oficina",
		Text:    "Olá, Maria!\nConfirme seu e-mail: https://oficina.example/confirm/abc\n",
		HTML:    `<p>Olá, Maria!</p><p><a href="https://oficina.example/confirm/abc">Confirmar e-mail</a></p>`,
		Tag:     "confirm",
	}
	if err := s.Send(context.Background(), m); err != nil {
		t.Fatalf("Send: %v", err)
	}
	if len(f.requests) != 1 {
		t.Fatalf("server got %d requests, want 1", len(f.requests))
	}
	req := f.requests[0]
	if !strings.HasPrefix(f.auth[0], "AWS4-HMAC-SHA256 Credential=AKIDTEST/") || !strings.Contains(f.auth[0], "/us-east-1/ses/aws4_request") {
		t.Errorf("request not SigV4-signed for ses: %q", f.auth[0])
	}
	if req.ConfigurationSetName != "oficina-prod" {
		t.Errorf("ConfigurationSetName = %q", req.ConfigurationSetName)
	}
	if len(req.EmailTags) != 1 || req.EmailTags[0].Name != ses.TagName || req.EmailTags[0].Value != "confirm" {
		t.Errorf("EmailTags = %+v, want [{%s confirm}]", req.EmailTags, ses.TagName)
	}
	if req.FromEmailAddress != "no-reply@oficina.example" {
		t.Errorf("FromEmailAddress = %q", req.FromEmailAddress)
	}
	if len(req.Destination.ToAddresses) != 1 || req.Destination.ToAddresses[0] != "maria@example.com" {
		t.Errorf("ToAddresses = %v", req.Destination.ToAddresses)
	}

	raw := req.Content.Raw.Data
	if len(raw) == 0 {
		t.Fatal("no raw content")
	}
	msg, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("raw content is not a message: %v\n%s", err, raw)
	}
	h := msg.Header
	dec := new(mime.WordDecoder)
	encSubject := h.Get("Subject")
	if !strings.HasPrefix(encSubject, "=?utf-8?") {
		t.Errorf("subject not RFC 2047 encoded: %q", encSubject)
	}
	if subject, err := dec.DecodeHeader(encSubject); err != nil || subject != m.Subject {
		t.Errorf("subject decodes to %q (%v), want %q", subject, err, m.Subject)
	}
	if from, err := h.AddressList("From"); err != nil || from[0].String() != (&mail.Address{Name: "Oficina", Address: "no-reply@oficina.example"}).String() {
		t.Errorf("From = %v (%v)", from, err)
	}
	if to, err := h.AddressList("To"); err != nil || to[0].Name != "Maria Conceição" || to[0].Address != "maria@example.com" {
		t.Errorf("To = %v (%v)", to, err)
	}
	if d, err := h.Date(); err != nil || !d.Equal(now) {
		t.Errorf("Date = %v (%v)", d, err)
	}
	if h.Get("Message-ID") == "" || h.Get("MIME-Version") != "1.0" {
		t.Errorf("Message-ID %q, MIME-Version %q", h.Get("Message-ID"), h.Get("MIME-Version"))
	}

	mt, params, err := mime.ParseMediaType(h.Get("Content-Type"))
	if err != nil || mt != "multipart/alternative" {
		t.Fatalf("Content-Type = %q (%v)", h.Get("Content-Type"), err)
	}
	mr := multipart.NewReader(msg.Body, params["boundary"])
	bodies := map[string]string{}
	for {
		p, err := mr.NextPart() // decodes quoted-printable
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		pt, pp, _ := mime.ParseMediaType(p.Header.Get("Content-Type"))
		if pp["charset"] != "utf-8" {
			t.Errorf("%s part charset %q", pt, pp["charset"])
		}
		b, _ := io.ReadAll(p)
		bodies[pt] = string(b)
	}
	if got, want := bodies["text/plain"], strings.ReplaceAll(m.Text, "\n", "\r\n"); got != want {
		t.Errorf("text/plain = %q, want %q", got, want)
	}
	if bodies["text/html"] != m.HTML {
		t.Errorf("text/html = %q, want %q", bodies["text/html"], m.HTML)
	}
	if !bytes.Contains(raw, []byte("Content-Transfer-Encoding: quoted-printable")) {
		t.Error("parts are not quoted-printable")
	}
	for _, c := range raw {
		if c > 127 {
			t.Fatal("raw message is not 7-bit clean")
		}
	}
}

func TestSendSanitisesTag(t *testing.T) {
	f := newFakeSES(t)
	s, err := ses.New(f.client(), ses.Options{From: "no-reply@oficina.example"})
	if err != nil {
		t.Fatal(err)
	}
	for tag, want := range map[string]string{"": "none", "weekly summary": "weekly_summary", "free-limit_2": "free-limit_2"} {
		f.requests = nil
		if err := s.Send(context.Background(), oficinamail.Message{To: "a@example.com", Subject: "s", Text: "t", Tag: tag}); err != nil {
			t.Fatal(err)
		}
		if got := f.requests[0].EmailTags[0].Value; got != want {
			t.Errorf("tag %q sent as %q, want %q", tag, got, want)
		}
		if f.requests[0].ConfigurationSetName != "" {
			t.Errorf("configuration set sent though none configured")
		}
	}
}

func TestSendWrapsSESErrors(t *testing.T) {
	f := newFakeSES(t)
	f.status = http.StatusBadRequest
	f.header.Set("X-Amzn-ErrorType", "MessageRejected")
	f.body = `{"message":"Email address is not verified. The following identities failed the check in region US-EAST-1: no-reply@oficina.example"}`
	s, err := ses.New(f.client(), ses.Options{From: "no-reply@oficina.example", ConfigurationSet: "cs"})
	if err != nil {
		t.Fatal(err)
	}
	err = s.Send(context.Background(), oficinamail.Message{To: "a@example.com", Subject: "Redefinir senha", Text: "segredo-do-link", Tag: "reset"})
	if err == nil {
		t.Fatal("Send returned nil for a 400")
	}
	var rejected *types.MessageRejected
	if !errors.As(err, &rejected) {
		t.Errorf("error %v (%T) does not wrap *types.MessageRejected", err, err)
	}
	if !strings.HasPrefix(err.Error(), `ses: send "reset" message: `) {
		t.Errorf("error not wrapped with context: %v", err)
	}
	if strings.Contains(err.Error(), "segredo-do-link") {
		t.Error("message body leaked into the error")
	}
	if len(f.requests) != 1 {
		t.Errorf("a 400 was retried: %d requests", len(f.requests))
	}

	f.header = http.Header{}
	f.body = `{"message":"bad"}`
	err = s.Send(context.Background(), oficinamail.Message{To: "a@example.com", Subject: "s", Text: "t"})
	if err == nil || !strings.Contains(err.Error(), "ses: send untagged message") {
		t.Errorf("plain 400: %v", err)
	}
}

func TestNewAndSendRejectBadInput(t *testing.T) {
	f := newFakeSES(t)
	if _, err := ses.New(f.client(), ses.Options{From: "not an address"}); err == nil {
		t.Error("New accepted a bad From")
	}
	if _, err := ses.New(nil, ses.Options{From: "a@example.com"}); err == nil {
		t.Error("New accepted a nil client")
	}
	s, _ := ses.New(f.client(), ses.Options{From: "a@example.com"})
	if err := s.Send(context.Background(), oficinamail.Message{To: "x@example.com\r\nBcc: y@example.com", Subject: "s", Text: "t"}); err == nil {
		t.Error("Send accepted a header injection")
	}
	if len(f.requests) != 0 {
		t.Error("a bad message reached SES")
	}
}
