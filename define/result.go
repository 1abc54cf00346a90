package define

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"runtime/debug"
	"strings"
	"sync"
	"unsafe"

	"github.com/toolnexus/toolnexus/internal/echo"
	"github.com/toolnexus/toolnexus/internal/jsonwire"
	"github.com/toolnexus/toolnexus/internal/outjson"
	"github.com/toolnexus/toolnexus/internal/reflectx"
)

// Result is what a tool call produced, ready to send back to the model.
type Result struct {
	// Output is the text for the model: the handler's string as is, or its
	// value as compact JSON, or, when IsError is set, a one-line message.
	Output string

	// IsError reports that the call failed: bad arguments, a handler error,
	// a cancelled context or a recovered panic.
	IsError bool

	// Value is the handler's typed output when it was neither a string nor a
	// Result, for structured outputs (MCP structuredContent). It is nil for
	// errors and for string outputs. Output is then its JSON, with nil
	// slices and maps as [] and {} (as the output schema has them), valid
	// UTF-8, within [WithMaxOutputBytes] and [MaxOutputDepth].
	Value any

	// Err is the Go error behind IsError, for the program (not the model):
	// an *ArgErrors, the handler's own error, a *PanicError, or the
	// context's error. errors.Is and errors.As work on it.
	Err error

	// Parts is the content the tool returns besides its text: images,
	// files, audio, and text placed among them (see [Part]). A handler
	// returns them in a Result, or as its output when Out is Part or
	// []Part. The adapters send Output first, then the parts in order,
	// each in the provider's own form. They are checked when the call
	// ends ([PartError]) and bounded by [WithMaxPartBytes] and
	// [WithMaxOutputBytes].
	Parts []Part

	// valueJSON is Value as JSON, as the call encoded it within its
	// limits (for the adapters' structured outputs); "" when not encoded.
	valueJSON string
}

// ValueJSON returns [Result.Value] as the JSON the call encoded, within
// the tool's output limits, for structured outputs (MCP's
// structuredContent): Output itself for a value the call rendered, the
// encoding of Value for a Result the handler returned with its own
// Output. It is false for a Result without one: a string output, an
// error, or a Result made by hand.
func (r Result) ValueJSON() (string, bool) { return r.valueJSON, r.valueJSON != "" }

// Errors callers can test for with errors.Is on [Result.Err] or on an
// [ArgError].
var (
	// ErrZeroTool reports the zero Tool: from its Execute methods, and
	// from the adapters and toolnexus.NewToolkit when given one. It is the
	// one sentinel for that mistake (adapters.ErrZeroTool is this value).
	ErrZeroTool = errors.New("define: zero Tool (make tools with DefineTool or NewTool)")

	ErrType         = reflectx.ErrType         // a value of the wrong JSON type
	ErrMissing      = reflectx.ErrMissing      // a required property is absent
	ErrUnknownField = reflectx.ErrUnknownField // a property the schema does not have
	ErrConstraint   = reflectx.ErrConstraint   // enum, bounds, length, pattern, format, ...
	ErrSyntax       = reflectx.ErrSyntax       // arguments text is not valid JSON
	ErrDuplicateKey = reflectx.ErrDuplicateKey // a key given twice in one JSON object
	ErrTooDeep      = reflectx.ErrTooDeep      // nesting beyond the decoder's bound
	ErrTooLarge     = reflectx.ErrTooLarge     // arguments beyond WithMaxArgBytes
)

// ArgError is one problem with one argument: its JSON Pointer path (""
// for the arguments as a whole), what was expected, what came, and one of
// the Err* sentinels.
type ArgError = reflectx.ArgError

// ArgErrors is every problem found in one call's arguments, up to
// reflectx.MaxErrors (20); Omitted counts the rest. It is the Err of a
// Result whose arguments were rejected.
type ArgErrors = reflectx.ArgErrors

// PanicError is the Err of a Result whose handler panicked.
type PanicError struct {
	Tool  string // the tool's name
	Value any    // what the handler panicked with (read back from JSON: its text, as Error showed it)
	Stack []byte // the goroutine's stack at the panic

	msg string // the message, for an error read back from JSON
}

// Error names the tool and what it panicked with, cut at
// [MaxEchoedPanic] bytes (Value keeps it whole).
func (e *PanicError) Error() string {
	if e.msg != "" {
		return e.msg
	}
	return "tool " + e.Tool + " panicked: " + echo.Value(e.Value, MaxEchoedPanic)
}

// MaxEchoedPanic is how many bytes of what a handler panicked with (as
// %v renders it) a [PanicError]'s message and its Result's Output show;
// the rest is cut, followed by "… (N bytes)", its full length.
const MaxEchoedPanic = 1024

// Bounds on what an argument error repeats of the input; see
// docs/limits.md.
const (
	MaxEchoedValue = reflectx.MaxEchoedValue // bytes of an offending value in ArgError.Got
	MaxEchoedKey   = reflectx.MaxEchoedKey   // bytes of a key in one step of ArgError.Path, or in Got
	MaxEchoedPath  = reflectx.MaxEchoedPath  // about the longest ArgError.Path
	MaxEchoedCause = reflectx.MaxEchoedCause // bytes of a user's Unmarshal error (or a parse error) in an ArgError's Err
	MaxErrorText   = reflectx.MaxErrorText   // the longest ArgErrors message
)

func errorResult(err error) Result {
	return Result{Output: oneLine(err.Error()), IsError: true, Err: err}
}

func argResult(err error) Result {
	return Result{Output: "invalid arguments: " + oneLine(err.Error()), IsError: true, Err: err}
}

func cancelResult(err error) Result {
	return Result{Output: "cancelled before the tool ran: " + err.Error(), IsError: true, Err: err}
}

// handlerErrorResult keeps the handler's message verbatim: it is the tool
// author's words to the model.
func handlerErrorResult(err error) Result {
	msg := err.Error()
	if msg == "" {
		msg = "the tool failed without a message"
	}
	return Result{Output: msg, IsError: true, Err: err}
}

func panicResult(tool string, v any) Result {
	e := &PanicError{Tool: tool, Value: v, Stack: debug.Stack()}
	return Result{
		Output:  oneLine("tool " + tool + " failed with an internal error: " + echo.Value(v, MaxEchoedPanic)),
		IsError: true,
		Err:     e,
	}
}

// oneLine folds a message onto one line.
func oneLine(s string) string {
	if !strings.ContainsAny(s, "\r\n") {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}

// MaxOutputDepth is how deeply a tool's output may nest (arrays and
// objects, and chains of pointers or interfaces): deeper is an error
// result wrapping [ErrOutputTooDeep].
const MaxOutputDepth = jsonwire.MaxDepth

// outputRenderer returns, once per output type, the function that turns a
// handler's output into a Result, its encoding bounded by max bytes
// (max < 0: no bound).
func outputRenderer[Out any]() func(o Out, max int) Result {
	t := reflect.TypeFor[Out]()
	switch {
	case t == reflect.TypeFor[Result]():
		return func(o Out, max int) Result { return passResult(*(*Result)(unsafe.Pointer(&o)), max) }
	case t == reflect.TypeFor[Part]():
		return func(o Out, _ int) Result { return Result{Parts: []Part{*(*Part)(unsafe.Pointer(&o))}} }
	case t == reflect.TypeFor[[]Part]():
		return func(o Out, _ int) Result { return Result{Parts: *(*[]Part)(unsafe.Pointer(&o))} }
	case t.Kind() == reflect.String:
		// Any string kind has the layout of string.
		return func(o Out, _ int) Result { return Result{Output: *(*string)(unsafe.Pointer(&o))} }
	case t.Kind() == reflect.Interface:
		return func(o Out, max int) Result { return renderAny(any(o), max) }
	default:
		return func(o Out, max int) Result { return renderJSON(o, max) }
	}
}

// renderAny renders a dynamically typed output.
func renderAny(v any, max int) Result {
	switch o := v.(type) {
	case string:
		return Result{Output: o}
	case Result:
		return passResult(o, max)
	case *Result:
		if o != nil {
			return passResult(*o, max)
		}
	case Part:
		return Result{Parts: []Part{o}}
	case *Part:
		if o != nil {
			return Result{Parts: []Part{*o}}
		}
	case []Part:
		return Result{Parts: o}
	}
	return renderJSON(v, max)
}

// passResult is a Result a handler returned: its Value, if any, is
// encoded now, within the output limits, for the structured outputs.
func passResult(r Result, max int) Result {
	r.valueJSON = ""
	if r.IsError || r.Value == nil {
		return r
	}
	data, err := encodeOutput(r.Value, max)
	if err != nil {
		return outputError(err, max)
	}
	r.valueJSON = data
	return r
}

func renderJSON(v any, max int) Result {
	data, err := encodeOutput(v, max)
	if err != nil {
		return outputError(err, max)
	}
	return Result{Output: data, Value: v, valueJSON: data}
}

// outBufs holds encoding buffers, so that a call's output costs its
// string, not a growing buffer too.
var outBufs = sync.Pool{New: func() any { return new([]byte) }}

// encodeOutput encodes v with outjson: nil slices and maps as [] and {},
// valid UTF-8, stopping past max bytes (then ErrTooLarge) or
// MaxOutputDepth levels.
func encodeOutput(v any, max int) (string, error) {
	bp := outBufs.Get().(*[]byte)
	buf, err := outjson.Append((*bp)[:0], v, outjson.Limits{MaxBytes: max, MaxDepth: MaxOutputDepth})
	var s string
	if err == nil {
		s = string(buf)
	}
	if cap(buf) <= 4<<20 { // a buffer of a rare huge output is left to the GC
		*bp = buf[:0]
		outBufs.Put(bp)
	}
	return s, err
}

// outputError is the error result of an output that could not be encoded.
func outputError(err error, max int) Result {
	switch {
	case errors.Is(err, outjson.ErrTooLarge):
		err = fmt.Errorf("%w: more than %d bytes as JSON", ErrOutputTooLarge, max)
		return Result{Output: fmt.Sprintf("the tool's output was more than the limit of %d bytes", max), IsError: true, Err: err}
	case errors.Is(err, outjson.ErrTooDeep):
		err = fmt.Errorf("%w: more than %d levels", ErrOutputTooDeep, MaxOutputDepth)
		return Result{Output: fmt.Sprintf("the tool's output was nested deeper than the limit of %d levels", MaxOutputDepth), IsError: true, Err: err}
	}
	err = fmt.Errorf("define: rendering output: %w", err)
	return Result{Output: "the tool's output could not be encoded as JSON: " + oneLine(err.Error()), IsError: true, Err: err}
}

// ErrOutputTooLarge is wrapped by the Err of the result of a call whose
// output is longer than [WithMaxOutputBytes] allows.
var ErrOutputTooLarge = errors.New("define: tool output too large")

// ErrOutputTooDeep is wrapped by the Err of the result of a call whose
// output nests deeper than [MaxOutputDepth] levels (a cyclic value does).
var ErrOutputTooDeep = errors.New("define: tool output nested too deeply")

// limitOutput replaces a result whose Output is longer than max bytes
// (max < 0: no bound) by an error result saying so.
func limitOutput(r Result, max int) Result {
	if max < 0 || len(r.Output) <= max {
		return r
	}
	return outputTooLarge(len(r.Output), max)
}

// limitResult is limitOutput, then checkParts for a result with parts: a
// call's end, for the tool named tool.
func limitResult(tool string, r Result, max int, parts partLimits) Result {
	r = limitOutput(r, max)
	if len(r.Parts) == 0 {
		return r
	}
	return checkParts(tool, r, parts)
}

// outputTooLarge is limitOutput's error result, apart so that limitOutput
// stays small enough to inline: a tool's handler runs below it, on a
// stack that should not have to grow for the library's frames.
func outputTooLarge(n, max int) Result {
	err := fmt.Errorf("%w: %d bytes, more than %d", ErrOutputTooLarge, n, max)
	return Result{Output: fmt.Sprintf("the tool's output was %d bytes, more than the limit of %d", n, max), IsError: true, Err: err}
}

// callContextError reports a context that is already done.
func callContextError(ctx context.Context) error {
	if ctx == nil {
		return nil
	}
	return ctx.Err()
}
