package toolnexus

import (
	"encoding/json"

	"github.com/toolnexus/toolnexus/define"
	"github.com/toolnexus/toolnexus/internal/errcodec"
)

// The errors of a toolkit's results, registered with the JSON of
// define.Result so that a result stored as JSON reads back into an equal
// one: its kind is what OutcomeOf tells, a denied, pending or unknown
// tool's error is made again with its fields (errors.As finds it), and
// the sentinels below are found by errors.Is in any error read back.

type deniedJSON struct {
	Reason string `json:"reason,omitempty"`
}

type unknownToolJSON struct {
	Name    string   `json:"name"`
	NameLen int      `json:"name_len"`
	Closest []string `json:"closest,omitempty"`
	More    int      `json:"more,omitempty"`
}

func init() {
	errcodec.RegisterSentinel(
		errcodec.Sentinel{Name: "denied", Err: ErrDenied},
		errcodec.Sentinel{Name: "pending", Err: ErrPending},
		errcodec.Sentinel{Name: "unknown_tool", Err: ErrUnknownTool},
		errcodec.Sentinel{Name: "abandoned", Err: ErrAbandoned},
		errcodec.Sentinel{Name: "slots_held", Err: ErrSlotsHeld},
		errcodec.Sentinel{Name: "tool_exited", Err: ErrToolExited},
	)
	errcodec.SetClassifier(func(err error) string {
		return string(OutcomeOf(define.Result{IsError: true, Err: err}))
	})
	errcodec.Register(errcodec.Codec{
		Name: "denied",
		Encode: func(err error) (any, bool) {
			e, ok := err.(*DeniedError)
			if !ok {
				return nil, false
			}
			return deniedJSON{Reason: e.Reason}, true
		},
		Decode: func(_ string, detail json.RawMessage) (error, error) {
			var d deniedJSON
			if err := json.Unmarshal(detail, &d); err != nil {
				return nil, err
			}
			return &DeniedError{Reason: d.Reason}, nil
		},
	})
	errcodec.Register(errcodec.Codec{
		Name: "pending",
		Encode: func(err error) (any, bool) {
			e, ok := err.(*PendingError)
			if !ok {
				return nil, false
			}
			return e.Call, true
		},
		Decode: func(_ string, detail json.RawMessage) (error, error) {
			var p PendingCall
			if err := json.Unmarshal(detail, &p); err != nil {
				return nil, err
			}
			return &PendingError{Call: p}, nil
		},
	})
	errcodec.Register(errcodec.Codec{
		Name: "unknown_tool",
		Encode: func(err error) (any, bool) {
			e, ok := err.(*UnknownToolError)
			if !ok {
				return nil, false
			}
			return unknownToolJSON{Name: e.Name, NameLen: e.NameLen, Closest: e.Closest, More: e.More}, true
		},
		Decode: func(_ string, detail json.RawMessage) (error, error) {
			var d unknownToolJSON
			if err := json.Unmarshal(detail, &d); err != nil {
				return nil, err
			}
			return &UnknownToolError{Name: d.Name, NameLen: d.NameLen, Closest: d.Closest, More: d.More}, nil
		},
	})
}
