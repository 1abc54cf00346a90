package define

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/toolnexus/toolnexus/internal/echo"
	"github.com/toolnexus/toolnexus/internal/errcodec"
	"github.com/toolnexus/toolnexus/internal/outjson"
)

// A Result is stored as JSON (a queue, a workflow's history, a file) and
// read back into an equal Result:
//
//	{"output":"...","is_error":true,"value":{...},"parts":[...],
//	 "error":{"kind":"bad_arguments","message":"...","type":"arg_errors","detail":{...},"is":["type"]}}
//
// "value" is Value as JSON (read back as a json.RawMessage, whose
// ValueJSON is the same text); "parts" are the parts as [Part] marshals
// them. "error" is Err: its kind (what toolnexus.OutcomeOf tells:
// bad_arguments, tool_error, panic, timeout, cancelled, denied, pending,
// unknown_tool, not_run), its message, and, for the error types this
// module makes, their fields ("type" and "detail": an [ArgErrors] with
// every path, a [PanicError], a [PartError], and the toolkit's denied,
// pending and unknown-tool errors), so that errors.As finds them again;
// "is" names the sentinels errors.Is found in it (context.Canceled,
// context.DeadlineExceeded, [ErrType], [ErrOutputTooLarge], the
// toolkit's ErrDenied, ErrPending, ErrAbandoned, ...), which errors.Is
// finds in the error read back. Any other error (a tool's own) is read
// back as a [*StoredError] with its message and those sentinels.

// StoredError is a result's error read back from JSON when its type is
// none this module makes (a tool's own error): its kind and message, and
// the sentinels errors.Is found in it when it was stored.
type StoredError struct {
	Kind    string // what toolnexus.OutcomeOf told of it: "tool_error", "timeout", ...
	Message string // its Error() when stored

	is []error
}

// Error returns the message.
func (e *StoredError) Error() string { return e.Message }

// Is reports whether target is one of the sentinels found in the error
// when it was stored.
func (e *StoredError) Is(target error) bool {
	for _, s := range e.is {
		if s == target {
			return true
		}
	}
	return false
}

type resultJSON struct {
	Output  string          `json:"output"`
	IsError bool            `json:"is_error,omitempty"`
	Value   json.RawMessage `json:"value,omitempty"`
	Parts   []Part          `json:"parts,omitempty"`
	Error   *errorJSON      `json:"error,omitempty"`
}

type errorJSON struct {
	Kind    string          `json:"kind"`
	Message string          `json:"message"`
	Type    string          `json:"type,omitempty"`
	Detail  json.RawMessage `json:"detail,omitempty"`
	Is      []string        `json:"is,omitempty"`
}

// MarshalJSON stores r as JSON (see [Result]). Value is written as the
// call encoded it ([Result.ValueJSON]), or, for a Result made by hand,
// encoded as outputs are (nil slices and maps as [] and {}, within
// [MaxOutputDepth]); a Value that cannot be is an error.
func (r Result) MarshalJSON() ([]byte, error) {
	out := resultJSON{Output: r.Output, IsError: r.IsError, Parts: r.Parts}
	if r.Value != nil {
		if s, ok := r.ValueJSON(); ok {
			out.Value = json.RawMessage(s)
		} else {
			v, err := outjson.Append(nil, r.Value, outjson.Limits{MaxBytes: -1, MaxDepth: MaxOutputDepth})
			if err != nil {
				return nil, fmt.Errorf("define: Result.MarshalJSON: Value: %w", err)
			}
			out.Value = v
		}
	}
	if r.Err != nil {
		e := &errorJSON{Kind: errcodec.Kind(r.Err), Message: r.Err.Error(), Is: errcodec.Is(r.Err)}
		if name, detail := errcodec.Encode(r.Err); name != "" {
			d, err := json.Marshal(detail)
			if err != nil {
				return nil, fmt.Errorf("define: Result.MarshalJSON: error detail: %w", err)
			}
			e.Type, e.Detail = name, d
		}
		out.Error = e
	}
	return json.Marshal(out)
}

// UnmarshalJSON reads back a Result that [Result.MarshalJSON] stored.
// Value becomes a json.RawMessage (compact), and ValueJSON its text; Err
// is made again as described at [Result]. An error whose type is
// unknown here (stored by a program that registers more) is read as a
// [*StoredError].
func (r *Result) UnmarshalJSON(data []byte) error {
	var in resultJSON
	if err := json.Unmarshal(data, &in); err != nil {
		return fmt.Errorf("define: Result.UnmarshalJSON: %w", err)
	}
	res := Result{Output: in.Output, IsError: in.IsError, Parts: in.Parts}
	if len(in.Value) > 0 && string(in.Value) != "null" {
		var b bytes.Buffer
		if err := json.Compact(&b, in.Value); err != nil {
			return fmt.Errorf("define: Result.UnmarshalJSON: value: %w", err)
		}
		res.Value = json.RawMessage(b.Bytes())
		res.valueJSON = b.String()
	}
	if e := in.Error; e != nil {
		err, ok, derr := errcodec.Decode(e.Type, e.Message, e.Detail)
		if derr != nil {
			return fmt.Errorf("define: Result.UnmarshalJSON: error %s: %w", e.Type, derr)
		}
		if !ok {
			err = &StoredError{Kind: e.Kind, Message: e.Message, is: sentinelsNamed(e.Is)}
		}
		res.Err = err
	}
	*r = res
	return nil
}

// sentinelsNamed returns the registered sentinels among names; unknown
// names are skipped.
func sentinelsNamed(names []string) []error {
	var out []error
	for _, n := range names {
		if s := errcodec.SentinelNamed(n); s != nil {
			out = append(out, s)
		}
	}
	return out
}

// argSentinels are the sentinels of an ArgError, by name.
var argSentinels = []errcodec.Sentinel{
	{Name: "type", Err: ErrType},
	{Name: "missing", Err: ErrMissing},
	{Name: "unknown_field", Err: ErrUnknownField},
	{Name: "constraint", Err: ErrConstraint},
	{Name: "syntax", Err: ErrSyntax},
	{Name: "duplicate_key", Err: ErrDuplicateKey},
	{Name: "too_deep", Err: ErrTooDeep},
	{Name: "too_large", Err: ErrTooLarge},
}

type argErrorJSON struct {
	Path string `json:"path"`
	Want string `json:"want"`
	Got  string `json:"got"`
	Code string `json:"code,omitempty"`  // the sentinel's name
	Err  string `json:"error,omitempty"` // Err's text when it is more than the sentinel's
}

type argErrorsJSON struct {
	Errors  []argErrorJSON `json:"errors"`
	Omitted int            `json:"omitted,omitempty"`
}

type panicJSON struct {
	Tool  string `json:"tool"`
	Value string `json:"value"`
	Stack string `json:"stack,omitempty"`
}

type partErrorJSON struct {
	Tool  string   `json:"tool"`
	Index int      `json:"index"`
	Part  string   `json:"part"`
	Err   string   `json:"error"`
	Is    []string `json:"is,omitempty"`
}

// sentinelError is an error whose text is its own and which errors.Is
// finds sentinel in: an ArgError's Err read back.
func sentinelError(text, code string) error {
	var s error
	for _, a := range argSentinels {
		if a.Name == code {
			s = a.Err
		}
	}
	switch {
	case s == nil:
		return errors.New(text)
	case text == "" || text == s.Error():
		return s
	}
	return &StoredError{Kind: "bad_arguments", Message: text, is: []error{s}}
}

// RegisterSentinel makes err, a sentinel error of a package of yours,
// survive a [Result]'s JSON: the Err of a Result read back from JSON
// answers errors.Is(err) as the stored Result's did. name identifies it
// in the JSON ("Is" list of the stored error): make it unique, with a
// prefix of your package ("tntemporal.may_have_run"), and never change
// it while stored results may be read. Register from an init function,
// before any Result is marshalled or read. It returns an error for an
// empty name or a nil err, and when the name or the error is registered
// already (the library registers its own sentinels).
func RegisterSentinel(name string, err error) error {
	switch {
	case name == "":
		return errors.New("define.RegisterSentinel: empty name")
	case err == nil:
		return fmt.Errorf("define.RegisterSentinel(%q): nil error", name)
	case !errcodec.RegisterNew(errcodec.Sentinel{Name: name, Err: err}):
		return fmt.Errorf("define.RegisterSentinel(%q): the name, or the error, is registered already", name)
	}
	return nil
}

func init() {
	errcodec.RegisterSentinel(argSentinels...)
	errcodec.RegisterSentinel(
		errcodec.Sentinel{Name: "context_canceled", Err: context.Canceled},
		errcodec.Sentinel{Name: "deadline_exceeded", Err: context.DeadlineExceeded},
		errcodec.Sentinel{Name: "zero_tool", Err: ErrZeroTool},
		errcodec.Sentinel{Name: "output_too_large", Err: ErrOutputTooLarge},
		errcodec.Sentinel{Name: "output_too_deep", Err: ErrOutputTooDeep},
		errcodec.Sentinel{Name: "part", Err: ErrPart},
	)
	errcodec.SetClassifier(classify)
	errcodec.Register(errcodec.Codec{
		Name: "arg_errors",
		Encode: func(err error) (any, bool) {
			e, ok := err.(*ArgErrors)
			if !ok {
				return nil, false
			}
			d := argErrorsJSON{Errors: make([]argErrorJSON, len(e.Errs)), Omitted: e.Omitted}
			for i, a := range e.Errs {
				j := argErrorJSON{Path: a.Path, Want: a.Want, Got: a.Got}
				if a.Err != nil {
					for _, s := range argSentinels {
						if errors.Is(a.Err, s.Err) {
							j.Code = s.Name
							break
						}
					}
					if a.Err.Error() != "" && (j.Code == "" || a.Err.Error() != errcodec.SentinelNamed(j.Code).Error()) {
						j.Err = a.Err.Error()
					}
				}
				d.Errors[i] = j
			}
			return d, true
		},
		Decode: func(_ string, detail json.RawMessage) (error, error) {
			var d argErrorsJSON
			if err := json.Unmarshal(detail, &d); err != nil {
				return nil, err
			}
			e := &ArgErrors{Errs: make([]*ArgError, len(d.Errors)), Omitted: d.Omitted}
			for i, a := range d.Errors {
				ae := &ArgError{Path: a.Path, Want: a.Want, Got: a.Got}
				if a.Code != "" || a.Err != "" {
					ae.Err = sentinelError(a.Err, a.Code)
				}
				e.Errs[i] = ae
			}
			return e, nil
		},
	})
	errcodec.Register(errcodec.Codec{
		Name: "panic",
		Encode: func(err error) (any, bool) {
			e, ok := err.(*PanicError)
			if !ok {
				return nil, false
			}
			v, _ := e.Value.(string)
			if e.msg == "" {
				v = echo.Value(e.Value, MaxEchoedPanic)
			}
			return panicJSON{Tool: e.Tool, Value: v, Stack: string(e.Stack)}, true
		},
		Decode: func(msg string, detail json.RawMessage) (error, error) {
			var d panicJSON
			if err := json.Unmarshal(detail, &d); err != nil {
				return nil, err
			}
			e := &PanicError{Tool: d.Tool, Value: d.Value, msg: msg}
			if d.Stack != "" {
				e.Stack = []byte(d.Stack)
			}
			return e, nil
		},
	})
	errcodec.Register(errcodec.Codec{
		Name: "part_error",
		Encode: func(err error) (any, bool) {
			e, ok := err.(*PartError)
			if !ok {
				return nil, false
			}
			return partErrorJSON{Tool: e.Tool, Index: e.Index, Part: e.Part, Err: e.Err.Error(), Is: errcodec.Is(e.Err)}, true
		},
		Decode: func(_ string, detail json.RawMessage) (error, error) {
			var d partErrorJSON
			if err := json.Unmarshal(detail, &d); err != nil {
				return nil, err
			}
			return &PartError{Tool: d.Tool, Index: d.Index, Part: d.Part,
				Err: &StoredError{Kind: "tool_error", Message: d.Err, is: sentinelsNamed(d.Is)}}, nil
		},
	})
}

// classify is the kind of a result's error as far as define knows;
// package toolnexus replaces it with OutcomeOf's reading.
func classify(err error) string {
	var (
		argErrs *ArgErrors
		panicE  *PanicError
	)
	switch {
	case errors.As(err, &argErrs):
		return "bad_arguments"
	case errors.As(err, &panicE):
		return "panic"
	case errors.Is(err, context.DeadlineExceeded):
		return "timeout"
	case errors.Is(err, context.Canceled):
		return "cancelled"
	}
	return "tool_error"
}
