package toolnexus_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
)

// responsesReply is an OpenAI Responses reply whose output calls each
// name with its arguments text.
func responsesReply(calls ...[2]string) []byte {
	var b strings.Builder
	b.WriteString(`{"object":"response","status":"completed","output":[`)
	for i, c := range calls {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"type":"function_call","id":"fc_` + string(rune('a'+i)) + `","call_id":"call_` + string(rune('a'+i)) + `","name":"` + c[0] + `","arguments":` + quoteJSON(c[1]) + `,"status":"completed"}`)
	}
	b.WriteString(`]}`)
	return []byte(b.String())
}

func quoteJSON(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"', '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '\n':
			b.WriteString(`\n`)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// strictNullsWant: the results of a turn with get_weather's optional unit
// sent null and get_time's required zone sent null.
const (
	nullUnitArgs = `{"city":"Oslo","unit":null}`
	nullZoneArgs = `{"zone":null}`
	nullUnitErr  = "invalid arguments: /unit: expected string, got null"
	nullZoneErr  = "invalid arguments: /zone: expected string, got null"
)

// TestRunStrictNulls: a call parsed by a Provider whose strict rendering
// made optional properties nullable reads null for such a property as its
// absence (the default applies), for OpenAI Chat and Responses, Strict and
// StrictWherePossible, through Parse and RunStream; a null for a required
// property stays an error; the same reply from a provider without a strict
// rendering keeps its verdict.
func TestRunStrictNulls(t *testing.T) {
	ctx := context.Background()
	turn := [][2]string{{"get_weather", nullUnitArgs}, {"get_time", nullZoneArgs}}
	for _, tc := range []struct {
		name  string
		p     adapters.Provider
		reply []byte
		unit  string // the first call's result
	}{
		{"openai strict", adapters.ForOpenAI(adapters.Strict(true)), chatReply("tool_calls", turn...), "Oslo C"},
		{"openai where possible", adapters.ForOpenAI(adapters.StrictWherePossible()), chatReply("tool_calls", turn...), "Oslo C"},
		{"openai not strict", adapters.ForOpenAI(), chatReply("tool_calls", turn...), nullUnitErr},
		{"openai strict false", adapters.ForOpenAI(adapters.Strict(false)), chatReply("tool_calls", turn...), nullUnitErr},
		{"responses strict", adapters.ForOpenAIResponses(adapters.Strict(true)), responsesReply(turn...), "Oslo C"},
		{"responses where possible", adapters.ForOpenAIResponses(adapters.StrictWherePossible()), responsesReply(turn...), "Oslo C"},
		{"responses not strict", adapters.ForOpenAIResponses(), responsesReply(turn...), nullUnitErr},
		{"deepseek (no strict option)", adapters.ForOpenAI(adapters.Server(adapters.DeepSeek)), chatReply("tool_calls", turn...), nullUnitErr},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var ran atomic.Int32
			tk := mistakeToolkit(t, &ran)
			parsed, err := tc.p.Parse(tc.reply)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if got, want := parsed.Calls[0].Rendering.IsZero(), tc.unit != "Oslo C"; got != want {
				t.Errorf("Call.Rendering.IsZero() = %v, want %v (%v)", got, want, parsed.Calls[0].Rendering)
			}
			results := tk.Run(ctx, parsed.Calls)
			if results[0].Output != tc.unit {
				t.Errorf("unit null: %q, want %q", results[0].Output, tc.unit)
			}
			if !results[1].IsError || results[1].Output != nullZoneErr {
				t.Errorf("zone null: %+v, want the error %q", results[1], nullZoneErr)
			}
			// The arguments the call carries are as sent: only the run reads
			// them as absent.
			if string(parsed.Calls[0].Args) != nullUnitArgs {
				t.Errorf("Args = %s, want them as sent", parsed.Calls[0].Args)
			}
		})
	}
}

// TestRunStreamStrictNulls: RunStream marks the calls of a strict stream
// and reads their nulls so.
func TestRunStreamStrictNulls(t *testing.T) {
	body := `data: {"choices":[{"index":0,"delta":{"role":"assistant","tool_calls":[{"index":0,"id":"call_a","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Oslo\",\"unit\":null}"}}]},"finish_reason":null}]}

data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}

data: [DONE]

`
	for _, tc := range []struct {
		p    adapters.Provider
		want string
	}{
		{adapters.ForOpenAI(adapters.Strict(true)), "Oslo C"},
		{adapters.ForOpenAI(), nullUnitErr},
	} {
		var ran atomic.Int32
		tk := mistakeToolkit(t, &ran)
		turn, results, err := tk.RunStream(context.Background(), tc.p, strings.NewReader(body), adapters.StreamHooks{})
		if err != nil {
			t.Fatalf("RunStream: %v", err)
		}
		if results[0].Output != tc.want {
			t.Errorf("%s: %q, want %q", tc.p.Name(), results[0].Output, tc.want)
		}
		if string(turn.Calls[0].Args) != nullUnitArgs {
			t.Errorf("Args = %s, want them as sent", turn.Calls[0].Args)
		}
	}
}

// TestRunWithProviderStrictNulls: calls that carry no rendering (made from
// an SDK's types, or parsed by a package function) read a strict
// rendering's nulls so under WithProvider; without it, or under a provider
// whose strict mode keeps optional properties optional (Anthropic), the
// verdict is unchanged.
func TestRunWithProviderStrictNulls(t *testing.T) {
	ctx := context.Background()
	calls := []adapters.Call{{ID: "a", Name: "get_weather", Args: []byte(nullUnitArgs)}, {ID: "b", Name: "get_weather", Input: map[string]any{"city": "Rome", "unit": nil}}}
	for _, tc := range []struct {
		name string
		opts []toolnexus.RunOption
		want [2]string
	}{
		{"none", nil, [2]string{nullUnitErr, nullUnitErr}},
		{"openai strict", []toolnexus.RunOption{toolnexus.WithProvider(adapters.ForOpenAI(adapters.Strict(true)))}, [2]string{"Oslo C", "Rome C"}},
		{"responses where possible", []toolnexus.RunOption{toolnexus.WithProvider(adapters.ForOpenAIResponses(adapters.StrictWherePossible()))}, [2]string{"Oslo C", "Rome C"}},
		{"anthropic strict", []toolnexus.RunOption{toolnexus.WithProvider(adapters.ForAnthropic(adapters.Strict(true)))}, [2]string{nullUnitErr, nullUnitErr}},
		{"openai", []toolnexus.RunOption{toolnexus.WithProvider(adapters.ForOpenAI())}, [2]string{nullUnitErr, nullUnitErr}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var ran atomic.Int32
			tk := mistakeToolkit(t, &ran)
			results := tk.Run(ctx, calls, tc.opts...)
			for i := range calls {
				if results[i].Output != tc.want[i] {
					t.Errorf("call %d: %q, want %q", i, results[i].Output, tc.want[i])
				}
			}
			if calls[1].Input["unit"] != nil || len(calls[1].Input) != 2 {
				t.Errorf("Run modified the call's Input: %v", calls[1].Input)
			}
		})
	}
	if !adapters.RenderingOf(adapters.ForAnthropic(adapters.Strict(true))).IsZero() {
		t.Error("RenderingOf(Anthropic strict) is not zero: its strict mode keeps optional properties optional")
	}
}

// TestStrictNullsPinned: a tool pinned strict (define.WithStrict(true)) is
// rendered strict by any provider with a strict mode, so its calls read
// nulls so whatever their rendering, through Run, Execute and ExecuteJSON
// alike; a tool pinned non-strict keeps its verdict under Strict(true).
func TestStrictNullsPinned(t *testing.T) {
	ctx := context.Background()
	pinned := define.MustDefineTool(func(_ context.Context, in mistakeArgs) (string, error) {
		return in.City + " " + in.Unit, nil
	}, define.WithName("pinned"), define.WithStrict(true))
	loose := define.MustDefineTool(func(_ context.Context, in mistakeArgs) (string, error) {
		return in.City + " " + in.Unit, nil
	}, define.WithName("loose"), define.WithStrict(false))
	tk, err := toolnexus.NewToolkitWith([]define.Tool{pinned, loose})
	if err != nil {
		t.Fatal(err)
	}
	if r := tk.ExecuteJSON(ctx, "pinned", []byte(nullUnitArgs)); r.Output != "Oslo C" {
		t.Errorf("ExecuteJSON(pinned) = %q", r.Output)
	}
	if r := tk.Execute(ctx, "pinned", map[string]any{"city": "Oslo", "unit": nil}); r.Output != "Oslo C" {
		t.Errorf("Execute(pinned) = %q", r.Output)
	}
	if r := tk.ExecuteJSON(ctx, "loose", []byte(nullUnitArgs)); r.Output != nullUnitErr {
		t.Errorf("ExecuteJSON(loose) = %q", r.Output)
	}
	if r := tk.Execute(ctx, "loose", map[string]any{"city": "Oslo", "unit": nil}); r.Output != nullUnitErr {
		t.Errorf("Execute(loose) = %q", r.Output)
	}
	turn, err := adapters.ForOpenAI(adapters.Strict(true)).Parse(chatReply("tool_calls", [2]string{"pinned", nullUnitArgs}, [2]string{"loose", nullUnitArgs}))
	if err != nil {
		t.Fatal(err)
	}
	results := tk.Run(ctx, turn.Calls)
	if results[0].Output != "Oslo C" || results[1].Output != nullUnitErr {
		t.Errorf("Run under Strict(true): %q, %q; want the pinned tool's default and the non-strict tool's error", results[0].Output, results[1].Output)
	}
	// The tool's own Execute and ExecuteJSON keep their verdict: only a
	// toolkit knows how its calls were rendered.
	if r := pinned.ExecuteJSON(ctx, []byte(nullUnitArgs)); r.Output != nullUnitErr {
		t.Errorf("Tool.ExecuteJSON = %q, want %q", r.Output, nullUnitErr)
	}
}
