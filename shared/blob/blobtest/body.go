package blobtest

import (
	"crypto/sha256"
	"encoding/binary"
	"io"
)

// Body is a generated body: its bytes are a function of (Seed, offset), so
// a test can stream tens of megabytes through a store and check every byte
// without ever holding them.
//
// The bytes repeat with a prime period (65,521), so that generating them is
// a memmove even under the race detector, while no buffer or part size of
// a store (powers of two) lines up with the period: a part out of place or
// a range off by a buffer changes the hash.
type Body struct {
	Seed uint64
	Size int64
}

const period = 65521

// Reader streams the body from its start.
func (b Body) Reader() io.Reader { return b.Section(0, b.Size) }

// Section streams bytes [off, off+n) of the body.
func (b Body) Section(off, n int64) *io.SectionReader {
	pat := make([]byte, period+7)
	for i := 0; i < len(pat); i += 8 {
		binary.LittleEndian.PutUint64(pat[i:], mix(b.Seed, uint64(i/8)))
	}
	return io.NewSectionReader(&bodyAt{pat: pat[:period], size: b.Size}, off, n)
}

// SHA256 hashes the bytes [off, off+n) of the body.
func (b Body) SHA256(off, n int64) [32]byte {
	h := sha256.New()
	if _, err := io.Copy(h, b.Section(off, n)); err != nil {
		panic(err) // a generated body cannot fail to read
	}
	var sum [32]byte
	h.Sum(sum[:0])
	return sum
}

type bodyAt struct {
	pat  []byte
	size int64
}

func (b *bodyAt) ReadAt(p []byte, off int64) (int, error) {
	if off >= b.size {
		return 0, io.EOF
	}
	n := len(p)
	if rem := b.size - off; int64(n) > rem {
		n = int(rem)
	}
	for i := 0; i < n; {
		i += copy(p[i:n], b.pat[(off+int64(i))%period:])
	}
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// mix is SplitMix64 of the word index, salted by the seed.
func mix(seed, i uint64) uint64 {
	z := seed*0x9e3779b97f4a7c15 + i + 1
	z += 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}
