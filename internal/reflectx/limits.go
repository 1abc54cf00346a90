package reflectx

import (
	"strconv"
	"unsafe"
)

// Limits bounds the work of one decode of untrusted arguments. A zero
// field means its default; a negative one means no bound.
type Limits struct {
	// MaxBytes bounds the size of the arguments: the length of JSON text,
	// or for map input the length the arguments would have as compact
	// JSON text, exactly (strings escaped only where JSON requires it,
	// numbers as encoding/json writes them; Go structs inside values kept
	// as given are counted about), counted while decoding, so that a map
	// sharing one subtree many times counts it each time. Default [DefaultMaxBytes]. Beyond
	// it the decode stops with [ErrTooLarge].
	MaxBytes int
	// MaxPatternBytes bounds the length of a string checked against a
	// pattern tag by the general regular-expression matcher, whose time
	// grows with the product of the string's length and the pattern's
	// size (a 1 MB string against "[a-z]{2,64}x" takes seconds). A longer
	// string breaks the constraint. Patterns of fixed length anchored at
	// both ends use a plain loop and have no such bound. Default
	// [DefaultMaxPatternBytes].
	MaxPatternBytes int
}

// Default limits; see [Limits].
const (
	DefaultMaxBytes        = 4 << 20
	DefaultMaxPatternBytes = 16 << 10
)

// resolve returns the limits with defaults filled in and "no bound" as
// the largest int.
func (l Limits) resolve() Limits {
	fill := func(v, def int) int {
		switch {
		case v == 0:
			return def
		case v < 0:
			return int(^uint(0) >> 1)
		}
		return v
	}
	return Limits{MaxBytes: fill(l.MaxBytes, DefaultMaxBytes), MaxPatternBytes: fill(l.MaxPatternBytes, DefaultMaxPatternBytes)}
}

// DecodeJSONLimits is [Plan.DecodeJSON] under lim.
func (p *Plan) DecodeJSONLimits(dst unsafe.Pointer, data []byte, lim Limits) error {
	d := getDecoder()
	err := p.decodeJSONLimits(d, nil, dst, data, lim)
	decoderPool.Put(d)
	return err
}

// DecodeJSONWith is [Plan.DecodeJSONLimits] with the decoder s instead of
// one from the package's pool, for a caller that keeps s in a pool of its
// own together with the value it decodes into: one pool round trip per
// call instead of two. s must not be used by two decodes at once.
func (p *Plan) DecodeJSONWith(s *Scratch, dst unsafe.Pointer, data []byte, lim Limits) error {
	return p.decodeJSONLimits(&s.d, &s.r, dst, data, lim)
}

// DecodeMapWith is [Plan.DecodeMapLimits] with the decoder s, as
// [Plan.DecodeJSONWith].
func (p *Plan) DecodeMapWith(s *Scratch, dst unsafe.Pointer, args map[string]any, lim Limits) error {
	return p.decodeMapLimits(&s.d, &s.r, dst, args, lim)
}

// A Scratch is the reusable state of a decode (see [Plan.DecodeJSONWith]);
// its zero value is ready to use. It keeps nothing of a finished decode
// that the decoded value points to, except the memory of the decode's
// frame that the decode left unused (a [reserve]), which later decodes
// hand out: fresh memory still, but one allocation shared by a few calls.
type Scratch struct {
	d decoder
	r reserve
}

func (p *Plan) decodeJSONLimits(d *decoder, r *reserve, dst unsafe.Pointer, data []byte, lim Limits) error {
	d.lim = lim.resolve()
	if len(data) > d.lim.MaxBytes {
		d.abort(ErrTooLarge, "arguments of at most "+strconv.Itoa(d.lim.MaxBytes)+" bytes", strconv.Itoa(len(data))+" bytes")
		return d.reset()
	}
	hint, slotHint := int(p.arenaHint.Load()), int(p.slotHint.Load())
	d.takeFrame(p, r, hint, slotHint)
	d.hint = hint
	d.decodeJSON(p, dst, data)
	p.noteCopied(hint, d.copied)
	noteHint(&p.slotHint, slotHint, d.used, maxFrameSlots)
	d.keepRest(r)
	return d.reset()
}

// noteCopied updates the plan's arena hint after a decode that copied
// copied bytes of strings with hint in force (noteHint).
func (p *Plan) noteCopied(hint, copied int) { noteHint(&p.arenaHint, hint, copied, arenaChunk) }

// DecodeMapLimits is [Plan.DecodeMap] under lim.
func (p *Plan) DecodeMapLimits(dst unsafe.Pointer, args map[string]any, lim Limits) error {
	d := getDecoder()
	err := p.decodeMapLimits(d, nil, dst, args, lim)
	decoderPool.Put(d)
	return err
}

func (p *Plan) decodeMapLimits(d *decoder, r *reserve, dst unsafe.Pointer, args map[string]any, lim Limits) error {
	d.lim = lim.resolve()
	d.budget = d.lim.MaxBytes
	hint, slotHint := int(p.mapHint.Load()), int(p.mapSlotHint.Load())
	d.takeFrame(p, r, hint, slotHint)
	d.decodeMap(p, dst, args)
	noteHint(&p.mapHint, hint, d.copied, arenaChunk)
	noteHint(&p.mapSlotHint, slotHint, d.used, maxFrameSlots)
	d.keepRest(r)
	return d.reset()
}

// spend charges n bytes of map input against MaxBytes, aborting with
// ErrTooLarge when they run out.
func (d *decoder) spend(n int) bool {
	if d.budget -= n; d.budget < 0 {
		d.tooLarge()
		return false
	}
	return true
}

// tooLarge is spend's abort, out of line so that spend is inlined.
func (d *decoder) tooLarge() {
	d.abort(ErrTooLarge, "arguments of at most "+strconv.Itoa(d.lim.MaxBytes)+" bytes as JSON", "more")
}

// CheckMap checks arguments that arrived as a map, for a consumer that
// takes them without a plan (define.NewTool marshals them to JSON): the
// same nesting, size and UTF-8 rules as [Plan.DecodeMap] applies to values
// it keeps as given, so that json.Marshal is never asked to walk a cyclic
// or absurdly deep value. The result is nil or an *[ArgErrors].
func CheckMap(args map[string]any, lim Limits) error {
	d := getDecoder()
	d.lim = lim.resolve()
	d.budget = d.lim.MaxBytes
	d.checkValue(args)
	return d.finish()
}

// CheckJSON checks that data is one JSON value within lim.MaxBytes and
// [MaxDepth], with the scanner of [Plan.DecodeJSON]. The result is nil or
// an *[ArgErrors].
func CheckJSON(data []byte, lim Limits) error {
	d := getDecoder()
	d.lim = lim.resolve()
	if len(data) > d.lim.MaxBytes {
		d.abort(ErrTooLarge, "arguments of at most "+strconv.Itoa(d.lim.MaxBytes)+" bytes", strconv.Itoa(len(data))+" bytes")
		return d.finish()
	}
	d.data = data
	d.ws()
	d.skip()
	if !d.fatal {
		d.ws()
		if d.i != len(d.data) {
			d.syntax("nothing after the value")
		}
	}
	return d.finish()
}

// CheckArgs checks that data is arguments text: one JSON object (or empty
// text, all space, or null, which mean {}) within lim.MaxBytes and
// [MaxDepth], with the scanner and the messages of [Plan.DecodeJSON]. The
// result is nil or an *[ArgErrors].
func CheckArgs(data []byte, lim Limits) error {
	d := getDecoder()
	d.lim = lim.resolve()
	if len(data) > d.lim.MaxBytes {
		d.abort(ErrTooLarge, "arguments of at most "+strconv.Itoa(d.lim.MaxBytes)+" bytes", strconv.Itoa(len(data))+" bytes")
		return d.finish()
	}
	d.data = data
	if _, object := d.argsStart(); object {
		d.skip()
		d.argsEnd()
	}
	return d.finish()
}
