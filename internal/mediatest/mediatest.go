// Package mediatest makes small media files for the tests of content
// parts: real PNG, JPEG and GIF images (encoded here), and files of the
// other types this module recognises, each with its format's signature
// and a few bytes of content, made the same way on every run.
package mediatest

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
)

// picture is a 4 by 4 image of four colours.
func picture() *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, 4, 4))
	for y := range 4 {
		for x := range 4 {
			img.Set(x, y, color.RGBA{R: uint8(60 * x), G: uint8(60 * y), B: 200, A: 255})
		}
	}
	return img
}

// PNG is a 4 by 4 PNG image.
func PNG() []byte {
	var b bytes.Buffer
	if err := png.Encode(&b, picture()); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// JPEG is a 4 by 4 JPEG image.
func JPEG() []byte {
	var b bytes.Buffer
	if err := jpeg.Encode(&b, picture(), &jpeg.Options{Quality: 90}); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// GIF is a 4 by 4 GIF image.
func GIF() []byte {
	var b bytes.Buffer
	if err := gif.Encode(&b, picture(), nil); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// WebP is a WebP file: its RIFF header and a lossless chunk's first
// bytes.
func WebP() []byte {
	body := []byte("WEBPVP8L\x05\x00\x00\x00\x2f\x03\xc0\x00\x07")
	return riff(body)
}

// WAV is a WAV file of 8 silent 8-bit mono samples.
func WAV() []byte {
	var b bytes.Buffer
	b.WriteString("WAVEfmt ")
	_ = binary.Write(&b, binary.LittleEndian, struct {
		Size                   uint32
		Format, Channels       uint16
		Rate, ByteRate         uint32
		BlockAlign, SampleBits uint16
	}{16, 1, 1, 8000, 8000, 1, 8})
	b.WriteString("data")
	_ = binary.Write(&b, binary.LittleEndian, uint32(8))
	b.Write(bytes.Repeat([]byte{0x80}, 8))
	return riff(b.Bytes())
}

func riff(body []byte) []byte {
	out := []byte("RIFF")
	out = binary.LittleEndian.AppendUint32(out, uint32(len(body)))
	return append(out, body...)
}

// MP3 is an MP3 frame header and some frame bytes.
func MP3() []byte { return append([]byte{0xff, 0xfb, 0x90, 0x64}, make([]byte, 24)...) }

// OGG is an Ogg page header and some bytes.
func OGG() []byte { return append([]byte("OggS\x00\x02"), make([]byte, 24)...) }

// FLAC is a FLAC stream marker and some bytes.
func FLAC() []byte { return append([]byte("fLaC\x00\x00\x00\x22"), make([]byte, 24)...) }

// PDF is a one-page PDF holding the text "Hello".
func PDF() []byte {
	return []byte("%PDF-1.4\n" +
		"1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj\n" +
		"2 0 obj <</Type /Pages /Kids [3 0 R] /Count 1>> endobj\n" +
		"3 0 obj <</Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] /Contents 4 0 R>> endobj\n" +
		"4 0 obj <</Length 36>> stream\nBT /F1 12 Tf 20 50 Td (Hello) Tj ET\nendstream endobj\n" +
		"trailer <</Root 1 0 R>>\n%%EOF\n")
}

// Text is a small text file.
func Text() []byte { return []byte("name,qty\nbolt,12\nnut,40\n") }

// Sized returns n bytes (at least the signature's) that start with the
// signature of PNG and continue with bytes that are not all alike, for
// benchmarks of large parts.
func Sized(n int) []byte {
	b := make([]byte, max(n, 8))
	copy(b, "\x89PNG\r\n\x1a\n")
	x := uint32(2463534242)
	for i := 8; i < len(b); i++ {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		b[i] = byte(x)
	}
	return b
}
