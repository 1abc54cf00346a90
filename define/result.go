package define

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"runtime/debug"
	"strings"
	"unsafe"

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
	// errors and for string outputs.
	Value any

	// Err is the Go error behind IsError, for the program (not the model):
	// an *ArgErrors, the handler's own error, a *PanicError, or the
	// context's error. errors.Is and errors.As work on it.
	Err error
}

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
	Value any    // what the handler panicked with
	Stack []byte // the goroutine's stack at the panic
}

// Error names the tool and what it panicked with.
func (e *PanicError) Error() string {
	return fmt.Sprintf("tool %s panicked: %v", e.Tool, e.Value)
}

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
		Output:  oneLine(fmt.Sprintf("tool %s failed with an internal error: %v", tool, v)),
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

// outputRenderer returns, once per output type, the function that turns a
// handler's output into a Result.
func outputRenderer[Out any]() func(Out) Result {
	t := reflect.TypeFor[Out]()
	switch {
	case t == reflect.TypeFor[Result]():
		return func(o Out) Result { return *(*Result)(unsafe.Pointer(&o)) }
	case t.Kind() == reflect.String:
		// Any string kind has the layout of string.
		return func(o Out) Result { return Result{Output: *(*string)(unsafe.Pointer(&o))} }
	case t.Kind() == reflect.Interface:
		return func(o Out) Result { return renderAny(any(o)) }
	default:
		return func(o Out) Result { return renderJSON(o) }
	}
}

// renderAny renders a dynamically typed output.
func renderAny(v any) Result {
	switch o := v.(type) {
	case string:
		return Result{Output: o}
	case Result:
		return o
	case *Result:
		if o != nil {
			return *o
		}
	}
	return renderJSON(v)
}

func renderJSON(v any) Result {
	data, err := json.Marshal(v)
	if err != nil {
		err = fmt.Errorf("define: rendering output: %w", err)
		return Result{Output: "the tool's output could not be encoded as JSON: " + oneLine(err.Error()), IsError: true, Err: err}
	}
	return Result{Output: string(data), Value: v}
}

// ErrOutputTooLarge is wrapped by the Err of the result of a call whose
// output is longer than [WithMaxOutputBytes] allows.
var ErrOutputTooLarge = errors.New("define: tool output too large")

// limitOutput replaces a result whose Output is longer than max bytes
// (max < 0: no bound) by an error result saying so.
func limitOutput(r Result, max int) Result {
	if max < 0 || len(r.Output) <= max {
		return r
	}
	return outputTooLarge(len(r.Output), max)
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
