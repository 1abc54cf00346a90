package reflectx

import (
	"errors"
	"strconv"
	"strings"
	"sync"

	"github.com/toolnexus/toolnexus/internal/echo"
	"github.com/toolnexus/toolnexus/internal/jsonwire"
)

// Sentinel errors wrapped by [ArgError].Err, for [errors.Is].
var (
	// ErrType reports a value of the wrong JSON type, or a number that does not fit
	// the Go type (2.5 for an int, 300 for an int8, -1 for a uint), or a value
	// that a field's UnmarshalJSON/UnmarshalText rejected.
	ErrType = errors.New("wrong type")
	// ErrMissing reports a required property is absent.
	ErrMissing = errors.New("missing required property")
	// ErrUnknownField reports a property the type does not declare (keys match
	// exactly, so a key that differs only in case is unknown too).
	ErrUnknownField = errors.New("unknown property")
	// ErrConstraint reports a value of the right type that breaks a constraint tag
	// (enum, const, minimum, pattern, format, minItems, ...).
	ErrConstraint = errors.New("constraint violated")
	// ErrSyntax reports that the arguments are not valid JSON (or not valid UTF-8).
	ErrSyntax = errors.New("invalid JSON")
	// ErrDuplicateKey reports the same key appearing twice in one JSON object.
	ErrDuplicateKey = errors.New("duplicate key")
	// ErrTooDeep reports JSON or map input nested deeper than [MaxDepth] (cyclic
	// maps end here too).
	ErrTooDeep = errors.New("nesting too deep")
	// ErrTooLarge reports arguments larger than [Limits].MaxBytes.
	ErrTooLarge = errors.New("arguments too large")
)

// MaxErrors is how many problems one [ArgErrors] keeps; the rest are counted
// in [ArgErrors].Omitted.
const MaxErrors = jsonwire.MaxErrors

// MaxDepth is the deepest nesting of objects and arrays the decoders accept.
const MaxDepth = jsonwire.MaxDepth

// Bounds on what an error message repeats of the input (see [echo.Cut]):
// text beyond them is cut, followed by "… (N bytes)", its full length.
const (
	// MaxEchoedValue is how many bytes of an offending value (JSON text,
	// or a map value rendered as JSON) ArgError.Got shows.
	MaxEchoedValue = 40
	// MaxEchoedKey is how many bytes of a key from the input one step of
	// ArgError.Path, or ArgError.Got, shows.
	MaxEchoedKey = 64
	// MaxEchoedPath is about how long ArgError.Path is at most: a longer
	// path keeps its first and last steps around "/… (N steps)".
	MaxEchoedPath = 512
	// MaxEchoedCause is how many bytes of the message of a cause (the
	// error of a user's UnmarshalJSON, a time parse error) an ArgError's
	// Err shows.
	MaxEchoedCause = 256
	// MaxErrorText is how long the message of an ArgErrors is at most:
	// the problems that do not fit are counted in its "and N more".
	MaxErrorText = 8 << 10
)

// maxGot is how many bytes of an offending value ArgError.Got shows.
const maxGot = MaxEchoedValue

// ArgError is one problem with one argument value.
//
// Its message is "PATH: expected WANT, got GOT", without "PATH: " when the
// problem concerns the arguments as a whole.
type ArgError struct {
	Path string // JSON Pointer (RFC 6901); "" is the whole arguments object
	Want string // what was expected, e.g. `integer`, `one of "C", "F"`
	Got  string // what came: the value (truncated to about 40 bytes), or "nothing"
	Err  error  // one of the sentinels, possibly wrapping a cause from a field's own Unmarshal method
}

// Error returns "PATH: expected WANT, got GOT". A syntax error, which
// makes the text no JSON object at all, starts "not a JSON object: ".
func (e *ArgError) Error() string {
	if e.Path == "" {
		if e.Err == ErrSyntax {
			return "not a JSON object: expected " + e.Want + ", got " + e.Got
		}
		return "expected " + e.Want + ", got " + e.Got
	}
	return e.Path + ": expected " + e.Want + ", got " + e.Got
}

// Unwrap returns the sentinel (or the error wrapping it).
func (e *ArgError) Unwrap() error { return e.Err }

// ArgErrors is every problem found in one set of arguments, up to [MaxErrors],
// in the order they were found: for each object, the problems of its keys
// (JSON text: in document order; map input: fields in Go order, then unknown
// keys sorted), then its missing required properties in Go field order.
type ArgErrors struct {
	Errs    []*ArgError
	Omitted int // problems found beyond MaxErrors (once past the cap, the rest of each array and object is skipped unchecked)
}

// Error joins the messages of Errs with "; " and mentions Omitted. It is
// at most [MaxErrorText] bytes long: the messages that would pass it are
// counted with Omitted in "; and N more" (a first message longer than
// that is cut).
func (e *ArgErrors) Error() string {
	var b strings.Builder
	more := e.Omitted
	for i, a := range e.Errs {
		msg := a.Error()
		if i > 0 {
			if b.Len()+2+len(msg) > MaxErrorText-len("; and 99999999 more") {
				more += len(e.Errs) - i
				break
			}
			b.WriteString("; ")
		} else {
			msg = echo.Cut(msg, MaxErrorText-len("; and 99999999 more")-len(echo.Marker+" (99999999999 bytes)"))
		}
		b.WriteString(msg)
	}
	if more > 0 {
		b.WriteString("; and ")
		b.WriteString(strconv.Itoa(more))
		b.WriteString(" more")
	}
	return b.String()
}

// Unwrap returns Errs as []error, so that errors.Is and errors.As see each one.
func (e *ArgErrors) Unwrap() []error {
	out := make([]error, len(e.Errs))
	for i, a := range e.Errs {
		out[i] = a
	}
	return out
}

// causeError wraps a sentinel together with the error that caused it (the
// error of a user's UnmarshalJSON, a time parse error), so that errors.Is
// finds both.
type causeError struct {
	sentinel error
	cause    error
}

func (c *causeError) Error() string {
	return c.sentinel.Error() + ": " + echo.Cut(c.cause.Error(), MaxEchoedCause)
}
func (c *causeError) Unwrap() []error { return []error{c.sentinel, c.cause} }

// pathElem is one step of the path stack: an array index, or an object
// key (escaped for a JSON Pointer): a field name registered with nameRef
// (ref > 0), or a key from the input (ref < 0: decoder.inKeys[-ref-1]).
// It holds no pointer, so that pushing one costs no write barrier.
type pathElem struct {
	idx int // -1 for a key
	ref int32
}

// pathNames holds the escaped field names of every plan, so that a path
// element refers to one by number. It grows with the program's distinct
// field names, and is read only to render an error.
var pathNames struct {
	sync.RWMutex
	byName map[string]int32
	list   []string
}

// nameRef returns the number of the escaped name esc in pathNames.
func nameRef(esc string) int32 {
	pathNames.Lock()
	defer pathNames.Unlock()
	if r, ok := pathNames.byName[esc]; ok {
		return r
	}
	if pathNames.byName == nil {
		pathNames.byName = map[string]int32{}
	}
	pathNames.list = append(pathNames.list, esc)
	r := int32(len(pathNames.list))
	pathNames.byName[esc] = r
	return r
}

// refName returns the escaped name numbered r by nameRef.
func refName(r int32) string {
	pathNames.RLock()
	defer pathNames.RUnlock()
	return pathNames.list[r-1]
}

// truncate cuts s to maxGot bytes on a rune boundary, copying only what
// it keeps.
func truncate[T ~string | ~[]byte](s T) string { return echo.Cut(s, maxGot) }
