package mail

import (
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	netmail "net/mail"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Sent is a message the Outbox wrote, read back: its file's name, the
// addressee (when there is one), the decoded subject, the headers and the
// decoded text and HTML bodies.
type Sent struct {
	File, To, Subject, Text, HTML string
	Header                        netmail.Header
}

// ReadSent reads back one .eml file the Outbox wrote (tests and developers
// read the confirmation and reset mails this way).
func ReadSent(path string) (Sent, error) {
	f, err := os.Open(path)
	if err != nil {
		return Sent{}, err
	}
	defer f.Close()
	msg, err := netmail.ReadMessage(f)
	if err != nil {
		return Sent{}, fmt.Errorf("%s: %w", path, err)
	}
	subject, _ := new(mime.WordDecoder).DecodeHeader(msg.Header.Get("Subject"))
	to, _ := msg.Header.AddressList("To")
	m := Sent{File: filepath.Base(path), Subject: subject, Header: msg.Header}
	if len(to) == 1 {
		m.To = to[0].Address
	}
	_, params, err := mime.ParseMediaType(msg.Header.Get("Content-Type"))
	if err != nil {
		return Sent{}, fmt.Errorf("%s: %w", path, err)
	}
	mr := multipart.NewReader(msg.Body, params["boundary"])
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			return m, nil
		}
		if err != nil {
			return Sent{}, fmt.Errorf("%s: %w", path, err)
		}
		var r io.Reader = p
		if strings.EqualFold(p.Header.Get("Content-Transfer-Encoding"), "quoted-printable") {
			r = quotedprintable.NewReader(p)
		}
		b, _ := io.ReadAll(r)
		if strings.HasPrefix(p.Header.Get("Content-Type"), "text/html") {
			m.HTML = string(b)
		} else {
			m.Text = string(b)
		}
	}
}

// ReadOutbox reads back every message in an Outbox's dir, oldest first (the
// file names sort in send order); a dir not made yet holds none.
func ReadOutbox(dir string) ([]Sent, error) {
	entries, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var names []string
	for _, en := range entries {
		if strings.HasSuffix(en.Name(), ".eml") {
			names = append(names, en.Name())
		}
	}
	sort.Strings(names)
	out := make([]Sent, 0, len(names))
	for _, n := range names {
		m, err := ReadSent(filepath.Join(dir, n))
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, nil
}
