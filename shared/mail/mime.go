package mail

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net/mail"
	"net/textproto"
	"strings"
	"time"
)

// TagHeader carries Message.Tag in the built message, so an .eml in the
// embedded outbox says what kind of mail it is. SES ignores it.
const TagHeader = "X-Oficina-Tag"

// maxHeaderLine is where header values are folded (RFC 5322 recommends 78).
const maxHeaderLine = 76

// BuildMIME renders m as an RFC 5322 message from from ("Name <addr>" or a
// bare address), dated now. Both bodies give multipart/alternative (text
// first, HTML last, as clients prefer the last part they can show); a single
// body gives a single text/plain or text/html part. Bodies are UTF-8 and
// quoted-printable; a non-ASCII subject or display name is RFC 2047 encoded.
// Lines end in CRLF. The SES adapter and the embedded outbox both use it, so
// what a developer reads in a local .eml is byte for byte what SES sends.
func BuildMIME(from string, m Message, now time.Time) ([]byte, error) {
	sender, err := parseAddress("from", from)
	if err != nil {
		return nil, err
	}
	rcpt, err := parseAddress("to", m.To)
	if err != nil {
		return nil, err
	}
	if strings.ContainsAny(m.Subject, "\r\n") {
		return nil, errors.New("mail: subject contains a line break")
	}
	if strings.ContainsAny(m.Tag, "\r\n") {
		return nil, errors.New("mail: tag contains a line break")
	}
	if strings.ContainsAny(m.Unsubscribe, "\r\n<>") {
		return nil, errors.New("mail: unsubscribe URL contains a line break or an angle bracket")
	}
	if m.Text == "" && m.HTML == "" {
		return nil, errors.New("mail: message has no body")
	}
	msgID, err := messageID(sender.Address)
	if err != nil {
		return nil, err
	}

	var b bytes.Buffer
	header(&b, "From", sender.String())
	header(&b, "To", rcpt.String())
	header(&b, "Subject", mime.QEncoding.Encode("utf-8", m.Subject))
	header(&b, "Date", now.Format(time.RFC1123Z))
	header(&b, "Message-ID", msgID)
	if m.Tag != "" {
		header(&b, TagHeader, mime.QEncoding.Encode("utf-8", m.Tag))
	}
	if m.Unsubscribe != "" {
		header(&b, "List-Unsubscribe", "<"+m.Unsubscribe+">")
		header(&b, "List-Unsubscribe-Post", "List-Unsubscribe=One-Click")
	}
	header(&b, "MIME-Version", "1.0")

	switch {
	case m.Text != "" && m.HTML != "":
		mw := multipart.NewWriter(&b)
		header(&b, "Content-Type", mime.FormatMediaType("multipart/alternative", map[string]string{"boundary": mw.Boundary()}))
		b.WriteString("\r\n")
		if err := part(mw, "text/plain", m.Text); err != nil {
			return nil, err
		}
		if err := part(mw, "text/html", m.HTML); err != nil {
			return nil, err
		}
		if err := mw.Close(); err != nil {
			return nil, err
		}
	case m.Text != "":
		if err := singlePart(&b, "text/plain", m.Text); err != nil {
			return nil, err
		}
	default:
		if err := singlePart(&b, "text/html", m.HTML); err != nil {
			return nil, err
		}
	}
	return b.Bytes(), nil
}

// Address returns the bare address in a "Name <addr>" or "addr" string.
func Address(s string) (string, error) {
	a, err := parseAddress("address", s)
	if err != nil {
		return "", err
	}
	return a.Address, nil
}

func parseAddress(field, s string) (*mail.Address, error) {
	if strings.ContainsAny(s, "\r\n") {
		return nil, fmt.Errorf("mail: %s address contains a line break", field)
	}
	a, err := mail.ParseAddress(s)
	if err != nil {
		return nil, fmt.Errorf("mail: bad %s address %q: %w", field, s, err)
	}
	return a, nil
}

func messageID(addr string) (string, error) {
	domain := "localhost"
	if i := strings.LastIndexByte(addr, '@'); i >= 0 && i < len(addr)-1 {
		domain = addr[i+1:]
	}
	var r [16]byte
	if _, err := rand.Read(r[:]); err != nil {
		return "", fmt.Errorf("mail: message id: %w", err)
	}
	return "<" + hex.EncodeToString(r[:]) + "@" + domain + ">", nil
}

// header writes "Name: value" folded at the spaces of value so no line is
// longer than maxHeaderLine where that is possible. Encoded words are
// separated by spaces, and folding white space between them is ignored by
// decoders, so folding never changes the decoded text. A first word too long
// for the name's line goes on the next one ("Subject:" CRLF " =?utf-8?q?…").
func header(b *bytes.Buffer, name, value string) {
	line := name + ":"
	for _, word := range strings.Split(value, " ") {
		if len(line)+1+len(word) > maxHeaderLine {
			b.WriteString(line)
			b.WriteString("\r\n")
			line = ""
		}
		line += " " + word
	}
	b.WriteString(line)
	b.WriteString("\r\n")
}

func part(mw *multipart.Writer, mediaType, body string) error {
	h := textproto.MIMEHeader{}
	h.Set("Content-Type", mime.FormatMediaType(mediaType, map[string]string{"charset": "utf-8"}))
	h.Set("Content-Transfer-Encoding", "quoted-printable")
	w, err := mw.CreatePart(h)
	if err != nil {
		return err
	}
	return writeQP(w, body)
}

func singlePart(b *bytes.Buffer, mediaType, body string) error {
	header(b, "Content-Type", mime.FormatMediaType(mediaType, map[string]string{"charset": "utf-8"}))
	header(b, "Content-Transfer-Encoding", "quoted-printable")
	b.WriteString("\r\n")
	return writeQP(b, body)
}

func writeQP(w io.Writer, body string) error {
	qp := quotedprintable.NewWriter(w)
	if _, err := qp.Write([]byte(body)); err != nil {
		return err
	}
	return qp.Close()
}
