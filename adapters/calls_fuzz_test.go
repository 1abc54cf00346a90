package adapters_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
)

// FuzzParseReply feeds every parser the same bytes: none may panic; an
// error is a *ReplyError with a sentinel; a success gives calls whose Args
// are JSON objects, a replay that marshals, and results that render.
func FuzzParseReply(f *testing.F) {
	for _, r := range replyFixtures {
		f.Add([]byte(r.reply))
	}
	for _, s := range exampleReplies {
		for _, r := range s.replies {
			f.Add([]byte(r))
		}
	}
	f.Add([]byte(`{"tool_calls":[{"id":"a","function":{"name":"f","arguments":"{\"a\":{\"b\":[1,2,{}]}}"}}]}`))
	f.Add([]byte(`[{"type":"function_call","call_id":"c","name":"f","arguments":" "}]`))
	f.Fuzz(func(t *testing.T, reply []byte) {
		for name, parse := range parsers {
			turn, err := parse(reply)
			if err != nil {
				var re *adapters.ReplyError
				if !errors.As(err, &re) {
					t.Fatalf("%s: error %T %v is not a *ReplyError", name, err, err)
				}
				if !errors.Is(err, adapters.ErrNotJSON) && !errors.Is(err, adapters.ErrReplyShape) && !errors.Is(err, adapters.ErrArguments) &&
					!errors.Is(err, adapters.ErrProviderError) && !errors.Is(err, adapters.ErrReplyLimit) {
					t.Fatalf("%s: error %v wraps no sentinel", name, err)
				}
				continue
			}
			for i, c := range turn.Calls {
				var obj map[string]json.RawMessage
				if c.Name == "" || json.Unmarshal(c.Args, &obj) != nil || obj == nil {
					t.Fatalf("%s: calls[%d] = %+v: want a name and a JSON object", name, i, c)
				}
			}
			if _, err := json.Marshal(turn.Replay); err != nil {
				t.Fatalf("%s: replay does not marshal: %v", name, err)
			}
			rendered, err := resultRenderers[name](turn.Calls, make([]define.Result, len(turn.Calls)))
			if err != nil {
				t.Fatalf("%s: results for parsed calls: %v", name, err)
			}
			if _, err := json.Marshal(rendered); err != nil {
				t.Fatalf("%s: results do not marshal: %v", name, err)
			}
		}
	})
}
