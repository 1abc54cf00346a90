package adapters

import (
	"errors"
	"fmt"

	"github.com/toolnexus/toolnexus/define"
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
}

// Error renders the error as "adapters: Func: tool \"name\": message".
func (e *Error) Error() string {
	s := "adapters: " + e.Func + ": "
	if e.Tool != "" {
		s += fmt.Sprintf("tool %q: ", e.Tool)
	}
	if e.Path != "" {
		s += "at " + e.Path + ": "
	}
	return s + e.Msg
}

// Unwrap returns the sentinel.
func (e *Error) Unwrap() error { return e.Err }
