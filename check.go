package toolnexus

import (
	"context"

	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
)

// Check runs the first steps of call c's lifecycle, as [Toolkit.Run]
// would: it finds the tool and decodes and validates the arguments, and
// runs nothing after that (no approval gate, middleware, handler or
// observer). When the call would end there, Check returns the error
// result Run gives it (an unknown tool: an [*UnknownToolError]; bad
// arguments: an [*define.ArgErrors]) and false; otherwise it returns the
// zero Result and true. It depends on the call and the tool's schema
// alone (and on an UnmarshalJSON or UnmarshalText method of the input
// type, if it has one: [define.Tool.DecodeCallsUserCode]), so a
// scheduler that must be deterministic (a durable workflow) can reject
// bad calls before it sends them anywhere.
func (tk *Toolkit) Check(c adapters.Call) (define.Result, bool) {
	t, ok := tk.Get(c.Name)
	if !ok {
		return tk.unknownTool(c.Name), false
	}
	var res define.Result
	var d define.Decoded
	if c.Input != nil {
		d = t.DecodeMap(context.Background(), c.Input, &res)
	} else {
		d = t.DecodeJSON(context.Background(), compactArgs(c.Args), &res)
	}
	if d == nil {
		return res, false
	}
	return define.Result{}, true
}
