// Package outjson renders a tool's output as JSON: encoding/json's encoding
// (field selection, tags, Marshaler and TextMarshaler, map key order, HTML
// escaping, number formatting) with four differences that make an output
// safe to send and true to its output schema:
//
//   - a nil slice is [] and a nil map is {} (a nil []byte is ""), so that a
//     value matches the "type": "array" or "object" its schema advertises;
//     nil pointers and interfaces stay null (their schemas allow it);
//     the fields of a nil embedded pointer are those of the zero struct
//     (encoding/json leaves them out, where the schema requires them);
//
//   - the encoding stops as soon as it passes Limits.MaxBytes, without
//     building the rest;
//
//   - nesting (arrays and objects, and chains of pointers or interfaces)
//     deeper than Limits.MaxDepth is an error, never a stack overflow;
//
//   - the bytes are valid UTF-8, also those a MarshalJSON method or a
//     json.RawMessage gives: an invalid byte becomes \ufffd, as encoding/json
//     does for strings.
//
//     data, err := outjson.Append(buf[:0], v, outjson.Limits{MaxBytes: 1 << 20})
package outjson

import (
	"encoding"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/toolnexus/toolnexus/internal/fields"
	"github.com/toolnexus/toolnexus/internal/jsonwire"
)

// Limits bound one encoding.
type Limits struct {
	// MaxBytes bounds the encoding's length; < 0 means no bound, 0 means
	// nothing but an empty encoding fits.
	MaxBytes int
	// MaxDepth bounds the nesting; 0 or less means [jsonwire.MaxDepth].
	MaxDepth int
}

var (
	// ErrTooLarge is returned when the encoding passes Limits.MaxBytes.
	ErrTooLarge = errors.New("outjson: output longer than the limit")
	// ErrTooDeep is returned when the value nests deeper than
	// Limits.MaxDepth (a cyclic value does).
	ErrTooDeep = errors.New("outjson: output nested too deeply")
)

// Append appends the JSON encoding of v to dst and returns the extended
// buffer. On an error the buffer's contents after len(dst) are partial;
// dst's bytes are kept.
func Append(dst []byte, v any, lim Limits) ([]byte, error) {
	if v == nil {
		return append(dst, "null"...), nil
	}
	e := encoder{buf: dst, max: -1, depth: lim.MaxDepth, ptrs: lim.MaxDepth}
	if lim.MaxBytes >= 0 {
		e.max = len(dst) + lim.MaxBytes
	}
	if e.depth <= 0 {
		e.depth, e.ptrs = jsonwire.MaxDepth, jsonwire.MaxDepth
	}
	rv := reflect.ValueOf(v)
	err := typeEncoder(rv.Type())(&e, rv)
	if err == nil && e.over() {
		err = ErrTooLarge
	}
	return e.buf, err
}

type encoder struct {
	buf   []byte
	max   int // < 0: none
	depth int // containers left
	ptrs  int // pointer and interface indirections left
}

func (e *encoder) over() bool { return e.max >= 0 && len(e.buf) > e.max }

// fits reports whether n more bytes stay within the bound.
func (e *encoder) fits(n int) bool { return e.max < 0 || n <= e.max-len(e.buf) }

type encFunc func(e *encoder, v reflect.Value) error

var encoders sync.Map // reflect.Type → encFunc

func typeEncoder(t reflect.Type) encFunc {
	if f, ok := encoders.Load(t); ok {
		return f.(encFunc)
	}
	// A recursive type meets itself while its encoder is built: it gets
	// a stand-in that waits for the real one.
	var (
		wg sync.WaitGroup
		f  encFunc
	)
	wg.Add(1)
	stand, loaded := encoders.LoadOrStore(t, encFunc(func(e *encoder, v reflect.Value) error {
		wg.Wait()
		return f(e, v)
	}))
	if loaded {
		return stand.(encFunc)
	}
	f = newTypeEncoder(t, true)
	wg.Done()
	encoders.Store(t, f)
	return f
}

var (
	marshalerType     = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
	rawMessageType    = reflect.TypeFor[json.RawMessage]()
	numberType        = reflect.TypeFor[json.Number]()
	timeType          = reflect.TypeFor[time.Time]()
)

// newTypeEncoder builds t's encoder. allowAddr: a value of t may be
// addressable, so that a pointer method (MarshalJSON on *T) is used when
// it is, as encoding/json does.
func newTypeEncoder(t reflect.Type, allowAddr bool) encFunc {
	switch t {
	case rawMessageType:
		return rawMessageEncoder
	case numberType:
		return numberEncoder
	case timeType:
		return timeEncoder
	}
	if t.Kind() != reflect.Pointer && allowAddr && reflect.PointerTo(t).Implements(marshalerType) {
		return condAddr(addrMarshalerEncoder, newTypeEncoder(t, false))
	}
	if t.Implements(marshalerType) {
		return marshalerEncoder
	}
	if t.Kind() != reflect.Pointer && allowAddr && reflect.PointerTo(t).Implements(textMarshalerType) {
		return condAddr(addrTextMarshalerEncoder, newTypeEncoder(t, false))
	}
	if t.Implements(textMarshalerType) {
		return textMarshalerEncoder
	}
	switch t.Kind() {
	case reflect.Bool:
		return boolEncoder
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return intEncoder
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return uintEncoder
	case reflect.Float32:
		return float32Encoder
	case reflect.Float64:
		return float64Encoder
	case reflect.String:
		return stringEncoder
	case reflect.Interface:
		return interfaceEncoder
	case reflect.Struct:
		return newStructEncoder(t)
	case reflect.Map:
		return newMapEncoder(t)
	case reflect.Slice:
		return newSliceEncoder(t)
	case reflect.Array:
		return newArrayEncoder(t)
	case reflect.Pointer:
		return newPtrEncoder(t)
	}
	return unsupported(t)
}

func unsupported(t reflect.Type) encFunc {
	return func(*encoder, reflect.Value) error {
		return fmt.Errorf("json: unsupported type: %v", t)
	}
}

func condAddr(addr, plain encFunc) encFunc {
	return func(e *encoder, v reflect.Value) error {
		if v.CanAddr() {
			return addr(e, v)
		}
		return plain(e, v)
	}
}

func (e *encoder) null() error {
	e.buf = append(e.buf, "null"...)
	return nil
}

func boolEncoder(e *encoder, v reflect.Value) error {
	e.buf = strconv.AppendBool(e.buf, v.Bool())
	return nil
}

func intEncoder(e *encoder, v reflect.Value) error {
	e.buf = strconv.AppendInt(e.buf, v.Int(), 10)
	return nil
}

func uintEncoder(e *encoder, v reflect.Value) error {
	e.buf = strconv.AppendUint(e.buf, v.Uint(), 10)
	return nil
}

func float32Encoder(e *encoder, v reflect.Value) error { return e.float(v.Float(), 32) }
func float64Encoder(e *encoder, v reflect.Value) error { return e.float(v.Float(), 64) }

// float formats f as encoding/json does: the shortest text that reads back
// as f, in exponent form only below 1e-6 and from 1e21 on, with a
// one-digit exponent not padded (1e-07 is 1e-7).
func (e *encoder) float(f float64, bits int) error {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return fmt.Errorf("json: unsupported value: %s", strconv.FormatFloat(f, 'g', -1, bits))
	}
	format := byte('f')
	if a := math.Abs(f); a != 0 {
		if bits == 64 && (a < 1e-6 || a >= 1e21) || bits == 32 && (float32(a) < 1e-6 || float32(a) >= 1e21) {
			format = 'e'
		}
	}
	start := len(e.buf)
	e.buf = strconv.AppendFloat(e.buf, f, format, -1, bits)
	if format == 'e' {
		b := e.buf[start:]
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			e.buf = e.buf[:len(e.buf)-1]
		}
	}
	return nil
}

func stringEncoder(e *encoder, v reflect.Value) error {
	s := v.String()
	if !e.fits(len(s) + 2) {
		return ErrTooLarge
	}
	e.buf = appendString(e.buf, s)
	return nil
}

func numberEncoder(e *encoder, v reflect.Value) error {
	s := v.String()
	if s == "" {
		s = "0" // as encoding/json
	}
	if !validNumber(s) {
		return fmt.Errorf("json: invalid number literal %q", s)
	}
	e.buf = append(e.buf, s...)
	return nil
}

const hex = "0123456789abcdef"

// AppendString appends s as a JSON string exactly as encoding/json writes
// it (see appendString).
func AppendString(dst []byte, s string) []byte { return appendString(dst, s) }

// appendString appends s as a JSON string, escaped as encoding/json
// escapes (HTML characters, U+2028 and U+2029 included), each byte that is
// not valid UTF-8 replaced by \ufffd.
func appendString[S string | []byte](dst []byte, s S) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		var rb [utf8.UTFMax]byte
		r, size := utf8.DecodeRune(rb[:copy(rb[:], s[i:])])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i++
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hex[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

func interfaceEncoder(e *encoder, v reflect.Value) error {
	if v.IsNil() {
		return e.null()
	}
	if e.ptrs == 0 {
		return ErrTooDeep
	}
	e.ptrs--
	el := v.Elem()
	err := typeEncoder(el.Type())(e, el)
	e.ptrs++
	return err
}

func newPtrEncoder(t reflect.Type) encFunc {
	var elem encFunc
	var once sync.Once
	return func(e *encoder, v reflect.Value) error {
		if v.IsNil() {
			return e.null()
		}
		if e.ptrs == 0 {
			return ErrTooDeep
		}
		once.Do(func() { elem = typeEncoder(t.Elem()) })
		e.ptrs--
		err := elem(e, v.Elem())
		e.ptrs++
		return err
	}
}

func marshalerEncoder(e *encoder, v reflect.Value) error {
	if (v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface) && v.IsNil() {
		return e.null()
	}
	b, err := v.Interface().(json.Marshaler).MarshalJSON()
	if err != nil {
		return fmt.Errorf("json: error calling MarshalJSON for type %v: %w", v.Type(), err)
	}
	return e.raw(b, v.Type())
}

func addrMarshalerEncoder(e *encoder, v reflect.Value) error {
	b, err := v.Addr().Interface().(json.Marshaler).MarshalJSON()
	if err != nil {
		return fmt.Errorf("json: error calling MarshalJSON for type %v: %w", v.Addr().Type(), err)
	}
	return e.raw(b, v.Addr().Type())
}

// timeEncoder is time.Time's MarshalJSON (RFC 3339 with the nanoseconds
// needed), without its allocation.
func timeEncoder(e *encoder, v reflect.Value) error {
	var t time.Time
	if v.CanAddr() {
		t = *(*time.Time)(v.Addr().UnsafePointer())
	} else {
		t = v.Interface().(time.Time)
	}
	start := len(e.buf)
	b, err := t.AppendText(append(e.buf, '"'))
	if err != nil {
		e.buf = e.buf[:start]
		return fmt.Errorf("json: error calling MarshalJSON for type time.Time: %w", err)
	}
	e.buf = append(b, '"')
	return nil
}

func rawMessageEncoder(e *encoder, v reflect.Value) error {
	b := v.Bytes()
	if b == nil {
		return e.null() // as RawMessage.MarshalJSON
	}
	return e.raw(b, rawMessageType)
}

func textMarshalerEncoder(e *encoder, v reflect.Value) error {
	if (v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface) && v.IsNil() {
		return e.null()
	}
	b, err := v.Interface().(encoding.TextMarshaler).MarshalText()
	if err != nil {
		return fmt.Errorf("json: error calling MarshalText for type %v: %w", v.Type(), err)
	}
	return e.text(b)
}

func addrTextMarshalerEncoder(e *encoder, v reflect.Value) error {
	b, err := v.Addr().Interface().(encoding.TextMarshaler).MarshalText()
	if err != nil {
		return fmt.Errorf("json: error calling MarshalText for type %v: %w", v.Addr().Type(), err)
	}
	return e.text(b)
}

func (e *encoder) text(b []byte) error {
	if !e.fits(len(b) + 2) {
		return ErrTooLarge
	}
	e.buf = appendString(e.buf, b)
	return nil
}

// raw appends JSON text a MarshalJSON method gave (t's), checked and
// compacted, HTML characters escaped, invalid UTF-8 replaced, its nesting
// counted against the depth left.
func (e *encoder) raw(b []byte, t reflect.Type) error {
	if !json.Valid(b) {
		return fmt.Errorf("json: error calling MarshalJSON for type %v: invalid JSON", t)
	}
	var err error
	e.buf, err = appendCompact(e.buf, b, e.depth)
	if err == nil && e.over() {
		err = ErrTooLarge
	}
	return err
}

// appendCompact appends valid JSON text b without insignificant space,
// escaping HTML characters, U+2028 and U+2029 in strings and replacing
// each byte that is not valid UTF-8 (only strings can hold one) by
// \ufffd. Nesting deeper than depth is ErrTooDeep.
func appendCompact(dst, b []byte, depth int) ([]byte, error) {
	level := 0
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch c {
		case ' ', '\t', '\n', '\r':
			continue
		case '{', '[':
			if level++; level > depth {
				return dst, ErrTooDeep
			}
		case '}', ']':
			level--
		case '"':
			j := i + 1
			for b[j] != '"' {
				if b[j] == '\\' {
					j++
				}
				j++
			}
			str := b[i+1 : j]
			if clean(str) {
				dst = append(dst, b[i:j+1]...)
			} else {
				dst = appendEscapedString(dst, str)
			}
			i = j
			continue
		}
		dst = append(dst, c)
	}
	return dst, nil
}

// clean reports whether the inside of a JSON string needs no change:
// ASCII without HTML characters.
func clean(s []byte) bool {
	for _, c := range s {
		if c >= utf8.RuneSelf || c == '<' || c == '>' || c == '&' {
			return false
		}
	}
	return true
}

// appendEscapedString appends the inside s of a valid JSON string, its
// escapes kept, with appendString's changes to everything else.
func appendEscapedString(dst, s []byte) []byte {
	dst = append(dst, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c == '\\' {
			n := 2
			if s[i+1] == 'u' {
				n = 6
			}
			dst = append(dst, s[i:i+n]...)
			i += n
			continue
		}
		// A run without escapes, quoted by appendString less its quotes.
		j := i
		for j < len(s) && s[j] != '\\' {
			j++
		}
		q := appendString(dst, s[i:j])
		copy(q[len(dst):], q[len(dst)+1:len(q)-1])
		dst = q[:len(q)-2]
		i = j
	}
	return append(dst, '"')
}

// validNumber reports whether s is a JSON number.
func validNumber(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			n++
		}
		return n
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case digits() == 0:
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}

// field is one property of a struct encoder.
type field struct {
	key       []byte // `"name":`, escaped
	index     []int
	embeds    bool // a pointer lies on the way: nil reads as the zero struct
	typ       reflect.Type
	enc       encFunc
	omitEmpty bool
	omitZero  bool
	quoted    bool
}

func newStructEncoder(t reflect.Type) encFunc {
	var (
		once sync.Once
		fs   []field
	)
	build := func() {
		walked := fields.Walk(t)
		fs = make([]field, len(walked))
		for i, w := range walked {
			f := &fs[i]
			f.key = append(appendString(nil, w.Name), ':')
			f.index, f.embeds, f.typ = w.Index, len(w.Embeds) > 0, w.Type
			f.omitEmpty, f.omitZero = w.OmitEmpty, w.OmitZero
			f.enc = typeEncoder(w.Type)
			if w.Quoted {
				f.quoted = quotable(w.Type)
			}
		}
	}
	return func(e *encoder, v reflect.Value) error {
		once.Do(build)
		if e.depth == 0 {
			return ErrTooDeep
		}
		e.depth--
		e.buf = append(e.buf, '{')
		first := true
		for i := range fs {
			f := &fs[i]
			fv := fieldOf(v, f)
			if f.omitEmpty && empty(fv) || f.omitZero && zero(fv) {
				continue
			}
			if !first {
				e.buf = append(e.buf, ',')
			}
			first = false
			e.buf = append(e.buf, f.key...)
			var err error
			if f.quoted {
				err = e.quoted(f, fv)
			} else {
				err = f.enc(e, fv)
			}
			if err != nil {
				return err
			}
			if e.over() {
				return ErrTooLarge
			}
		}
		e.buf = append(e.buf, '}')
		e.depth++
		return nil
	}
}

func fieldOf(v reflect.Value, f *field) reflect.Value {
	if !f.embeds {
		if len(f.index) == 1 {
			return v.Field(f.index[0])
		}
		return v.FieldByIndex(f.index)
	}
	for _, i := range f.index {
		if v.Kind() == reflect.Pointer {
			if v.IsNil() {
				// encoding/json leaves the fields out; the schema
				// requires them, so they are the zero struct's.
				v = reflect.Zero(v.Type().Elem())
			} else {
				v = v.Elem()
			}
		}
		v = v.Field(i)
	}
	return v
}

// quotable reports whether the ",string" option applies to t, as
// encoding/json has it: scalars, and unnamed pointers to them.
func quotable(t reflect.Type) bool {
	if t.Name() == "" && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.String:
		return true
	}
	return false
}

// quoted encodes a ",string" field: its JSON inside a string.
func (e *encoder) quoted(f *field, v reflect.Value) error {
	if v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return e.null()
		}
		v = v.Elem()
	}
	if v.Kind() == reflect.String {
		inner := appendString(nil, v.String())
		if !e.fits(2 * len(inner)) {
			return ErrTooLarge
		}
		e.buf = appendString(e.buf, inner)
		return nil
	}
	e.buf = append(e.buf, '"')
	if err := typeEncoder(v.Type())(e, v); err != nil {
		return err
	}
	e.buf = append(e.buf, '"')
	return nil
}

// empty is encoding/json's omitempty test.
func empty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool:
		return !v.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int() == 0
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return v.Uint() == 0
	case reflect.Float32, reflect.Float64:
		return v.Float() == 0
	case reflect.Interface, reflect.Pointer:
		return v.IsNil()
	}
	return false
}

type isZeroer interface{ IsZero() bool }

var isZeroerType = reflect.TypeFor[isZeroer]()

// zero is encoding/json's omitzero test: an IsZero method when the type
// has one, else the zero value.
func zero(v reflect.Value) bool {
	t := v.Type()
	switch {
	case t.Implements(isZeroerType):
		if (t.Kind() == reflect.Pointer || t.Kind() == reflect.Interface) && v.IsNil() {
			return true
		}
		return v.Interface().(isZeroer).IsZero()
	case reflect.PointerTo(t).Implements(isZeroerType) && v.CanAddr():
		return v.Addr().Interface().(isZeroer).IsZero()
	}
	return v.IsZero()
}

func newMapEncoder(t reflect.Type) encFunc {
	switch t.Key().Kind() {
	case reflect.String, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
	default:
		if !t.Key().Implements(textMarshalerType) {
			return unsupported(t)
		}
	}
	var (
		once sync.Once
		elem encFunc
	)
	type entry struct {
		key string
		v   reflect.Value
	}
	return func(e *encoder, v reflect.Value) error {
		if v.Len() == 0 {
			e.buf = append(e.buf, '{', '}') // nil too: the schema says object
			return nil
		}
		if e.depth == 0 {
			return ErrTooDeep
		}
		once.Do(func() { elem = typeEncoder(t.Elem()) })
		entries := make([]entry, 0, v.Len())
		it := v.MapRange()
		for it.Next() {
			k, err := mapKey(it.Key())
			if err != nil {
				return err
			}
			entries = append(entries, entry{k, it.Value()})
		}
		slices.SortFunc(entries, func(a, b entry) int { return strings.Compare(a.key, b.key) })
		e.depth--
		e.buf = append(e.buf, '{')
		for i := range entries {
			if i > 0 {
				e.buf = append(e.buf, ',')
			}
			if !e.fits(len(entries[i].key) + 3) {
				return ErrTooLarge
			}
			e.buf = append(appendString(e.buf, entries[i].key), ':')
			if err := elem(e, entries[i].v); err != nil {
				return err
			}
			if e.over() {
				return ErrTooLarge
			}
		}
		e.buf = append(e.buf, '}')
		e.depth++
		return nil
	}
}

// mapKey is encoding/json's name for a map key.
func mapKey(k reflect.Value) (string, error) {
	if k.Kind() == reflect.String {
		return k.String(), nil
	}
	if tm, ok := k.Interface().(encoding.TextMarshaler); ok {
		if k.Kind() == reflect.Pointer && k.IsNil() {
			return "", nil
		}
		b, err := tm.MarshalText()
		if err != nil {
			return "", fmt.Errorf("json: error calling MarshalText for type %v: %w", k.Type(), err)
		}
		return string(b), nil
	}
	switch k.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(k.Int(), 10), nil
	}
	return strconv.FormatUint(k.Uint(), 10), nil
}

func newSliceEncoder(t reflect.Type) encFunc {
	el := t.Elem()
	if el.Kind() == reflect.Uint8 && !reflect.PointerTo(el).Implements(marshalerType) && !reflect.PointerTo(el).Implements(textMarshalerType) {
		return bytesEncoder
	}
	return newArrayEncoder(t)
}

// bytesEncoder writes a []byte as standard base64, nil as "" (the schema
// says string).
func bytesEncoder(e *encoder, v reflect.Value) error {
	b := v.Bytes()
	n := base64.StdEncoding.EncodedLen(len(b))
	if !e.fits(n + 2) {
		return ErrTooLarge
	}
	e.buf = append(e.buf, '"')
	e.buf = base64.StdEncoding.AppendEncode(e.buf, b)
	e.buf = append(e.buf, '"')
	return nil
}

// newArrayEncoder encodes slices (nil as []) and arrays.
func newArrayEncoder(t reflect.Type) encFunc {
	var (
		once sync.Once
		elem encFunc
	)
	return func(e *encoder, v reflect.Value) error {
		n := v.Len()
		if n == 0 {
			e.buf = append(e.buf, '[', ']')
			return nil
		}
		if e.depth == 0 {
			return ErrTooDeep
		}
		once.Do(func() { elem = typeEncoder(t.Elem()) })
		e.depth--
		e.buf = append(e.buf, '[')
		for i := range n {
			if i > 0 {
				e.buf = append(e.buf, ',')
			}
			if err := elem(e, v.Index(i)); err != nil {
				return err
			}
			if e.over() {
				return ErrTooLarge
			}
		}
		e.buf = append(e.buf, ']')
		e.depth++
		return nil
	}
}

// AppendValid appends JSON text b, which must be valid (json.Valid), as
// Append would a json.RawMessage holding it: compact, HTML characters
// escaped in strings, each byte that is not valid UTF-8 replaced by
// \ufffd. Its nesting is not bounded.
func AppendValid(dst, b []byte) []byte {
	dst, _ = appendCompact(dst, b, math.MaxInt)
	return dst
}
