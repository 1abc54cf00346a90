package adapters

import (
	"encoding/binary"
	"hash/crc32"
	"unicode/utf8"
)

// eventStreamFramer reads AWS's binary event stream
// (application/vnd.amazon.eventstream), the body of Bedrock's
// ConverseStream. Each frame is:
//
//	total length   uint32, big-endian, the whole frame
//	headers length uint32, big-endian
//	prelude CRC    uint32, CRC-32 (IEEE) of the 8 bytes before it
//	headers        each: name length (1 byte), name, value type (1 byte), value
//	payload        the rest, JSON for Bedrock
//	message CRC    uint32, CRC-32 (IEEE) of everything before it
//
// Both CRCs are checked, and a frame's lengths are checked against the
// limits as soon as its prelude is read, before its bytes are kept: a
// frame's buffer grows only with the bytes that arrive. The frame's
// :event-type header names the event; the :message-type (event, exception
// or error) and the exception's type are kept for the assembler to read.
type eventStreamFramer struct {
	max    int    // the largest payload, in bytes
	buf    []byte // the frame read so far, when it spans writes
	need   int    // the total length of the frame in buf; 0 before its prelude is whole
	frames int    // frames begun

	// The headers of the frame being emitted (valid during emit).
	msgType, eventType, excType, errCode, errMsg string
}

const (
	eventStreamPrelude = 12 // the two lengths and the prelude CRC
	eventStreamMin     = 16 // prelude and message CRC, no headers, no payload
	// eventStreamMaxHeaders bounds a frame's headers: 128 KiB, the limit
	// AWS's event stream implementations apply.
	eventStreamMaxHeaders = 128 << 10
)

func newEventStreamFramer(max int) *eventStreamFramer { return &eventStreamFramer{max: max} }

func (f *eventStreamFramer) write(b []byte, emit func(string, []byte) error) error {
	for len(b) > 0 {
		if len(f.buf) == 0 && len(b) >= eventStreamPrelude {
			// A frame starts here: read it in place when it is all in b.
			f.frames++
			total, err := f.prelude(b)
			if err != nil {
				return err
			}
			if len(b) >= total {
				if err := f.frame(b[:total], emit); err != nil {
					return err
				}
				b = b[total:]
				continue
			}
			f.need = total
			f.buf = f.grow(len(b))
			f.buf = append(f.buf, b...)
			return nil
		}
		if len(f.buf) == 0 {
			f.frames++
		}
		if f.need == 0 {
			// The prelude spans writes.
			k := min(eventStreamPrelude-len(f.buf), len(b))
			f.buf = append(f.buf, b[:k]...)
			b = b[k:]
			if len(f.buf) < eventStreamPrelude {
				return nil
			}
			total, err := f.prelude(f.buf)
			if err != nil {
				return err
			}
			f.need = total
		}
		k := min(f.need-len(f.buf), len(b))
		f.buf = append(f.grow(k), b[:k]...)
		b = b[k:]
		if len(f.buf) < f.need {
			return nil
		}
		err := f.frame(f.buf, emit)
		f.buf, f.need = f.buf[:0], 0
		if err != nil {
			return err
		}
	}
	return nil
}

// grow returns f.buf with room for k more bytes: the room doubles, up to
// the frame's length, as its bytes arrive (append's slower growth of
// large slices allocates about five times the frame).
func (f *eventStreamFramer) grow(k int) []byte {
	n := len(f.buf) + k
	if n <= cap(f.buf) {
		return f.buf
	}
	return append(make([]byte, 0, min(max(n, 2*cap(f.buf)), max(f.need, n))), f.buf...)
}

// prelude checks the prelude at the start of b (at least 12 bytes) and
// returns the frame's total length.
func (f *eventStreamFramer) prelude(b []byte) (int, error) {
	sent := binary.BigEndian.Uint32(b[8:12])
	if got := crc32.ChecksumIEEE(b[:8]); got != sent {
		return 0, frameError(ErrNotJSON, "frame %d: prelude CRC mismatch (0x%08x sent, 0x%08x computed): not an AWS event stream, or a corrupted one", f.frames, sent, got)
	}
	total, headers := binary.BigEndian.Uint32(b[0:4]), binary.BigEndian.Uint32(b[4:8])
	switch {
	case total < eventStreamMin:
		return 0, frameError(ErrNotJSON, "frame %d: total length %d is less than the %d bytes of a frame's prelude and CRCs", f.frames, total, eventStreamMin)
	case headers > total-eventStreamMin:
		return 0, frameError(ErrNotJSON, "frame %d: headers length %d does not fit in a frame of %d bytes", f.frames, headers, total)
	case headers > eventStreamMaxHeaders:
		return 0, frameError(ErrReplyLimit, "frame %d: %d bytes of headers, more than the limit of %d", f.frames, headers, eventStreamMaxHeaders)
	case int64(total-eventStreamMin-headers) > int64(f.max):
		return 0, frameError(ErrReplyLimit, "frame %d: a payload of %d bytes, more than the limit of %d for one event", f.frames, total-eventStreamMin-headers, f.max)
	}
	return int(total), nil
}

// frame checks one whole frame's message CRC, reads its headers and emits
// its payload.
func (f *eventStreamFramer) frame(b []byte, emit func(string, []byte) error) error {
	n := len(b)
	sent := binary.BigEndian.Uint32(b[n-4:])
	if got := crc32.ChecksumIEEE(b[:n-4]); got != sent {
		return frameError(ErrNotJSON, "frame %d: message CRC mismatch (0x%08x sent, 0x%08x computed)", f.frames, sent, got)
	}
	hl := int(binary.BigEndian.Uint32(b[4:8]))
	if err := f.headers(b[eventStreamPrelude : eventStreamPrelude+hl]); err != nil {
		return err
	}
	payload := b[eventStreamPrelude+hl : n-4]
	name := f.eventType
	switch f.msgType {
	case "event":
		if name == "" {
			return frameError(ErrReplyShape, "frame %d: an event with no :event-type header", f.frames)
		}
	case "exception":
		name = f.excType
	case "error":
		name = f.errCode
	case "":
		return frameError(ErrReplyShape, "frame %d: no :message-type header", f.frames)
	default:
		return frameError(ErrReplyShape, "frame %d: :message-type %s is not event, exception or error", f.frames, msgQuote(f.msgType))
	}
	return emit(name, payload)
}

// headers reads a frame's headers, keeping the ones the assembler reads.
// Every value type is parsed (and skipped when not a string), so that a
// header the reader does not know never shifts the ones after it.
func (f *eventStreamFramer) headers(h []byte) error {
	f.msgType, f.eventType, f.excType, f.errCode, f.errMsg = "", "", "", "", ""
	for i := 0; i < len(h); {
		nl := int(h[i])
		if nl == 0 {
			return frameError(ErrNotJSON, "frame %d: a header with an empty name at byte %d of the headers", f.frames, i)
		}
		if i+1+nl+1 > len(h) {
			return frameError(ErrNotJSON, "frame %d: a header runs past the end of the headers", f.frames)
		}
		name := h[i+1 : i+1+nl]
		typ := h[i+1+nl]
		i += 1 + nl + 1
		size := 0
		switch typ {
		case 0, 1: // true, false: no value bytes
		case 2: // byte
			size = 1
		case 3: // short
			size = 2
		case 4: // int
			size = 4
		case 5, 8: // long, timestamp
			size = 8
		case 9: // uuid
			size = 16
		case 6, 7: // bytes, string: a 2-byte length first
			if i+2 > len(h) {
				return frameError(ErrNotJSON, "frame %d: header %s runs past the end of the headers", f.frames, msgQuote(string(name)))
			}
			size = 2 + int(binary.BigEndian.Uint16(h[i:]))
		default:
			return frameError(ErrNotJSON, "frame %d: header %s has the unknown value type %d", f.frames, msgQuote(string(name)), typ)
		}
		if i+size > len(h) {
			return frameError(ErrNotJSON, "frame %d: header %s runs past the end of the headers", f.frames, msgQuote(string(name)))
		}
		val := h[i : i+size]
		i += size
		var dst *string
		switch string(name) {
		case ":message-type":
			dst = &f.msgType
		case ":event-type":
			dst = &f.eventType
		case ":exception-type":
			dst = &f.excType
		case ":error-code":
			dst = &f.errCode
		case ":error-message":
			dst = &f.errMsg
		default:
			continue
		}
		if typ != 7 {
			return frameError(ErrReplyShape, "frame %d: header %s is not a string (value type %d)", f.frames, string(name), typ)
		}
		if !utf8.Valid(val[2:]) {
			return frameError(ErrReplyShape, "frame %d: header %s is not UTF-8", f.frames, string(name))
		}
		*dst = string(val[2:])
	}
	return nil
}

func (f *eventStreamFramer) end(func(string, []byte) error) error {
	switch {
	case len(f.buf) == 0:
		return nil
	case f.need == 0:
		return frameError(ErrIncomplete, "the body ended inside the prelude of frame %d (%d of its %d bytes)", f.frames, len(f.buf), eventStreamPrelude)
	}
	return frameError(ErrIncomplete, "the body ended inside frame %d (%d of its %d bytes)", f.frames, len(f.buf), f.need)
}
