package adapters_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/golden"
)

// replyOutcome is what a reply fixture parses to, as its golden file holds
// it: the turn, or the error.
type replyOutcome struct {
	Turn  *parsedTurn `json:"turn,omitempty"`
	Error *replyErr   `json:"error,omitempty"`
}

type replyErr struct {
	Sentinel string `json:"sentinel"`
	Path     string `json:"path"`
	Problem  string `json:"problem"`
	Message  string `json:"message,omitempty"`
	Type     string `json:"type,omitempty"`
	Code     string `json:"code,omitempty"`
}

var sentinels = map[string]error{
	"ErrNotJSON":       adapters.ErrNotJSON,
	"ErrReplyShape":    adapters.ErrReplyShape,
	"ErrArguments":     adapters.ErrArguments,
	"ErrProviderError": adapters.ErrProviderError,
	"ErrReplyLimit":    adapters.ErrReplyLimit,
	"ErrIncomplete":    adapters.ErrIncomplete,
}

func sentinelName(err error) string {
	for name, s := range sentinels {
		if errors.Is(err, s) {
			return name
		}
	}
	return ""
}

// TestReplyClasses parses the recorded-style replies in
// testdata/golden/calls/<provider>/replies (error bodies, blocked replies,
// items the client must answer, server-side tools, ids to make, hostile
// keys) against the goldens in .../parsed. A fixture named error_* must be
// the provider's error quoted; one named duplicate_* or case_variant_* must
// be rejected; any that parses must give calls its replay agrees with.
func TestReplyClasses(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "testdata", "golden", "calls", "*", "replies", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 30 {
		t.Fatalf("found %d reply fixtures, want at least 30", len(files))
	}
	for _, file := range files {
		provider := filepath.Base(filepath.Dir(filepath.Dir(file)))
		name := strings.TrimSuffix(filepath.Base(file), ".json")
		t.Run(provider+"/"+name, func(t *testing.T) {
			reply, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			turn, err := parsers[provider](reply)
			var out replyOutcome
			if err != nil {
				var re *adapters.ReplyError
				if !errors.As(err, &re) {
					t.Fatalf("error %T %v is not a *ReplyError", err, err)
				}
				out.Error = &replyErr{sentinelName(err), re.Path, re.Problem, re.Message, re.Type, re.Code}
			} else {
				out.Turn = &parsedTurn{turn.Calls, turn.Text, turn.Stop, turn.Replay, turn.Searches}
				if diff := cmp.Diff(turn.Calls, callsFromReplay(t, provider, turn.Replay), jsonValues, ignoreMarks); diff != "" {
					t.Errorf("calls and replay disagree (-calls +replay):\n%s", diff)
				}
			}
			golden.JSON(t, filepath.Join(filepath.Dir(filepath.Dir(file)), "parsed", name+".json"), out)

			switch {
			case strings.HasPrefix(name, "error_"):
				if !errors.Is(err, adapters.ErrProviderError) {
					t.Fatalf("error = %v, want ErrProviderError", err)
				}
				// The provider's own message is quoted, whole.
				var re *adapters.ReplyError
				errors.As(err, &re)
				quoted, _ := json.Marshal(re.Message)
				if re.Message == "" || !bytes.Contains(reply, quoted[1:len(quoted)-1]) || !strings.Contains(err.Error(), strconv.Quote(re.Message)) {
					t.Errorf("error %q does not quote the provider's message %q", err, re.Message)
				}
			case strings.HasPrefix(name, "duplicate_"), strings.HasPrefix(name, "case_variant_"):
				if !errors.Is(err, adapters.ErrReplyShape) {
					t.Errorf("error = %v, want ErrReplyShape", err)
				}
			}
		})
	}
}

// callsFromReplay reads the calls back out of a replay with encoding/json,
// the way another layer (a logger, a policy check, the provider itself)
// would: they must be the calls the parser returned.
// blockType is the "type" of a replayed block or item, "" when it has
// none or it is not a string.
func blockType(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	var b struct{ Type json.RawMessage }
	mustUnmarshal(t, raw, &b)
	var typ string
	if json.Unmarshal(b.Type, &typ) != nil {
		return ""
	}
	return typ
}

func callsFromReplay(t *testing.T, provider string, replay []any) []adapters.Call {
	t.Helper()
	data, err := json.Marshal(replay)
	if err != nil {
		t.Fatalf("replay does not marshal: %v", err)
	}
	var calls []adapters.Call
	add := func(id, name string, args json.RawMessage, sig string) {
		calls = append(calls, adapters.Call{ID: id, Name: name, Args: compactArgs(t, args), ThoughtSignature: sig})
	}
	h, ok := testHomes[provider]
	if !ok {
		t.Fatalf("no test home for %s (write %s_home_test.go)", provider, provider)
	}
	h.replay(t, data, add)
	return calls
}

// jsonValues compares JSON texts by value: the replay marshals with
// encoding/json, which writes "&" as "\u0026".
var jsonValues = cmp.Transformer("jsonValue", func(r json.RawMessage) any {
	var v any
	dec := json.NewDecoder(bytes.NewReader(r))
	dec.UseNumber()
	if dec.Decode(&v) != nil {
		return string(r)
	}
	return v
})

func mustUnmarshal(t *testing.T, data []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("replay %s: %v", data, err)
	}
}

// compactArgs is how the parsers normalise arguments: absent, null and
// blank are {}; an object is compacted; a text that is no JSON object
// stays as sent (a malformed call's Args).
func compactArgs(t *testing.T, args json.RawMessage) json.RawMessage {
	trimmed := bytes.TrimSpace(args)
	if len(trimmed) == 0 || string(trimmed) == "null" {
		return json.RawMessage("{}")
	}
	var b bytes.Buffer
	if trimmed[0] != '{' || json.Compact(&b, trimmed) != nil {
		return args
	}
	return b.Bytes()
}

// ignoreMarks leaves a call's marks out of a comparison with calls read
// back from a replay, which holds the text as sent and no marks.
var ignoreMarks = cmp.FilterPath(func(p cmp.Path) bool {
	sf, ok := p.Last().(cmp.StructField)
	return ok && (sf.Name() == "Malformed" || sf.Name() == "Repaired")
}, cmp.Ignore())
