package adapters

import (
	"errors"
	"fmt"
	"strings"

	"github.com/toolnexus/toolnexus/define"
	"github.com/toolnexus/toolnexus/internal/jsonwire"
)

// Sentinel errors wrapped by [Error], for errors.Is.
var (
	// ErrName: a tool name the provider rejects.
	ErrName = errors.New("tool name rejected by the provider")
	// ErrPropertyKey: a property key the provider rejects.
	ErrPropertyKey = errors.New("property key rejected by the provider")
	// ErrUnsupported: a schema the provider (or the chosen mode) cannot
	// express, such as an open map in OpenAI strict mode.
	ErrUnsupported = errors.New("schema not expressible for the provider")
	// ErrLimit: a documented or observed provider limit is exceeded (tool
	// count, description length, nesting).
	ErrLimit = errors.New("provider limit exceeded")
	// ErrOption: an option that does not apply, or a bad option value.
	ErrOption = errors.New("invalid option")
	// ErrZeroTool: a zero define.Tool was passed; it is [define.ErrZeroTool].
	ErrZeroTool = define.ErrZeroTool
)

// Error is a tool set that cannot be rendered for a provider. It is
// reported before any request is made, in place of the provider's 400.
type Error struct {
	Func string // the rendering function: "ToGemini", ...
	Tool string // the tool's name; "" when the problem is the whole set
	Path string // JSON Pointer into the tool's input schema; "" for the tool itself
	Msg  string // what is wrong, naming the provider's rule
	Err  error  // one of the Err* sentinels

	// answer: Tool names a typed answer rendered as a tool
	// (ResponseFormat), and the message says "answer".
	answer bool
}

// Error renders the error as "adapters: Func: tool \"name\": message".
func (e *Error) Error() string {
	return "adapters: " + e.Func + ": " + e.detail()
}

// detail is the error without its "adapters: Func: " prefix.
func (e *Error) detail() string {
	s := ""
	if e.Tool != "" {
		noun := "tool"
		if e.answer {
			noun = "answer"
		}
		s += fmt.Sprintf("%s %q: ", noun, e.Tool)
	}
	if e.Path != "" {
		s += "at " + e.Path + ": "
	}
	return s + e.Msg
}

// Unwrap returns the sentinel.
func (e *Error) Unwrap() error { return e.Err }

// MaxErrors is how many problems one rendering call reports; the rest are
// counted in [Errors.Omitted].
const MaxErrors = jsonwire.MaxErrors

// Errors is every problem found by one rendering call (every tool, every
// schema path, and the request-level checks), up to [MaxErrors]. The
// ToX functions return it for any failure, even of one problem; errors.Is
// and errors.As see each [*Error] (errors.Is(err, ErrUnsupported)).
type Errors struct {
	Errs    []*Error
	Omitted int // problems found beyond MaxErrors
}

// Error joins the problems with "; " after one "adapters: Func: " prefix,
// naming each tool once for its run of problems, and says how many were
// omitted.
func (e *Errors) Error() string {
	var b strings.Builder
	for i, x := range e.Errs {
		if i == 0 {
			b.WriteString(x.Error())
			continue
		}
		b.WriteString("; ")
		prev := e.Errs[i-1]
		if x.Func != prev.Func {
			b.WriteString(x.Func + ": ")
		}
		if x.Tool == prev.Tool && x.Func == prev.Func {
			cp := *x
			cp.Tool = ""
			x = &cp
		}
		b.WriteString(x.detail())
	}
	if e.Omitted > 0 {
		fmt.Fprintf(&b, "; and %d more", e.Omitted)
	}
	return b.String()
}

// Unwrap returns Errs as []error, for errors.Is and errors.As.
func (e *Errors) Unwrap() []error {
	out := make([]error, len(e.Errs))
	for i, x := range e.Errs {
		out[i] = x
	}
	return out
}

// errorList collects the problems of one call, flattening nested lists and
// counting those beyond MaxErrors.
type errorList struct{ jsonwire.Capped[*Error] }

// add records err (an *Error, an *Errors or another error) and reports
// whether there was one.
func (l *errorList) add(err error) bool {
	if err == nil {
		return false
	}
	if err == errSpent {
		return true // the budget's end is recorded once, when it is met
	}
	switch x := err.(type) {
	case *Errors:
		for _, e := range x.Errs {
			l.add(e)
		}
		l.Omitted += x.Omitted
	case *Error:
		l.Add(x)
	default:
		l.add(&Error{Func: "adapters", Err: err, Msg: err.Error()})
	}
	return true
}

// err returns the collected problems as an *Errors, or nil.
func (l *errorList) err() error {
	if len(l.Errs) == 0 {
		return nil
	}
	return &Errors{Errs: l.Errs, Omitted: l.Omitted}
}

// joinErrors returns errs as one *Errors, or nil.
func joinErrors(errs []*Error) error {
	var l errorList
	for _, e := range errs {
		l.add(e)
	}
	return l.err()
}
