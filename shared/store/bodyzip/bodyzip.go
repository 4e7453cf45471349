// Package bodyzip compresses stored document bodies (and other stored JSON)
// with zstd and a small built-in dictionary of the product's field names
// and stamps, so that a typical 1–3 KB record shrinks by half or more: on
// DynamoDB a 1.5 KB stored document falls under the 1 KB write unit, on the
// embedded store the file holds fewer bytes per record.
//
// Packed values are zstd frames (they start with zstd's magic number);
// anything else is stored as it came, so values written before compression
// and values too small to gain read back unchanged. The dictionary is part
// of the stored format: a frame names its dictionary by id, and a
// dictionary, once shipped, is never changed — a better one gets a new id.
package bodyzip

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"sync"

	"github.com/klauspost/compress/zstd"
)

// dict1 is dictionary 1: JSON fragments the product's records repeat.
//
//go:embed dict1.txt
var dict1 []byte

const dict1ID = 1

// magic starts every zstd frame.
var magic = []byte{0x28, 0xb5, 0x2f, 0xfd}

// MinSize is the smallest body worth trying: below it the frame header
// eats the gain.
const MinSize = 128

// maxUnpacked bounds what a frame may expand to (a stored document is at
// most 350 KB; records are smaller).
const maxUnpacked = 1 << 20

var errTooBig = errors.New("bodyzip: frame expands beyond the limit")

// codec holds the encoder and decoder; both are safe for concurrent use
// and built once, on first use.
var codec = sync.OnceValues(func() (*zstd.Encoder, *zstd.Decoder) {
	enc, err := zstd.NewWriter(nil,
		zstd.WithEncoderDictRaw(dict1ID, dict1),
		zstd.WithEncoderLevel(zstd.SpeedDefault),
		zstd.WithEncoderCRC(false),
		zstd.WithWindowSize(1<<17),
		zstd.WithLowerEncoderMem(true))
	if err != nil {
		panic(fmt.Sprintf("bodyzip: encoder: %v", err)) // static options
	}
	dec, err := zstd.NewReader(nil,
		zstd.WithDecoderDictRaw(dict1ID, dict1),
		zstd.WithDecoderMaxMemory(maxUnpacked),
		zstd.WithDecoderConcurrency(0))
	if err != nil {
		panic(fmt.Sprintf("bodyzip: decoder: %v", err))
	}
	return enc, dec
})

// Pack returns b compressed when that is smaller, else b itself.
func Pack(b []byte) []byte {
	if len(b) < MinSize {
		return b
	}
	enc, _ := codec()
	z := enc.EncodeAll(b, make([]byte, 0, len(b)/2))
	if len(z) >= len(b) {
		return b
	}
	return z
}

// Packed reports whether b is a frame Pack made.
func Packed(b []byte) bool { return bytes.HasPrefix(b, magic) }

// Unpack returns the value Pack was given: a frame decompressed, anything
// else as it is.
func Unpack(b []byte) ([]byte, error) {
	if !Packed(b) {
		return b, nil
	}
	_, dec := codec()
	out, err := dec.DecodeAll(b, nil)
	if err != nil {
		return nil, fmt.Errorf("bodyzip: %w", err)
	}
	if len(out) > maxUnpacked {
		return nil, errTooBig
	}
	return out, nil
}
