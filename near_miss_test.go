package toolnexus_test

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
)

// TestNearMissNames: under WithNearMissNames, a name that misses a tool's
// only by case and '_'/'-' runs that tool, marked on the call observers
// see; anything else stays the unknown-tool error; without the option
// every near miss is unknown.
func TestNearMissNames(t *testing.T) {
	ctx := context.Background()
	calls := []adapters.Call{
		{ID: "a", Name: "Get_Weather", Args: []byte(`{"city":"Oslo"}`)},
		{ID: "b", Name: "getWeather", Args: []byte(`{"city":"Rome"}`)},
		{ID: "c", Name: "GET-TIME", Args: []byte(`{"zone":"UTC"}`)},
		{ID: "d", Name: "get_weathers", Args: []byte(`{"city":"Bern"}`)},
		{ID: "e", Name: "get weather", Args: []byte(`{"city":"Bern"}`)},
		{ID: "f", Name: "get_weather", Args: []byte(`{"city":"Lima"}`)},
	}
	var mu sync.Mutex
	seen := map[string]toolnexus.Event{}
	observer := func(_ context.Context, e toolnexus.Event) {
		mu.Lock()
		defer mu.Unlock()
		seen[e.Call.ID] = e
	}
	for _, tc := range []struct {
		name string
		opts []toolnexus.ToolkitOption
		want []string // outputs; "unknown" for the unknown-tool error
	}{
		{"on", []toolnexus.ToolkitOption{toolnexus.WithNearMissNames(), toolnexus.WithObserver(observer)},
			[]string{"Oslo C", "Rome C", "noon in UTC", "unknown", "unknown", "Lima C"}},
		{"on, no hooks", []toolnexus.ToolkitOption{toolnexus.WithNearMissNames()},
			[]string{"Oslo C", "Rome C", "noon in UTC", "unknown", "unknown", "Lima C"}},
		{"off", []toolnexus.ToolkitOption{toolnexus.WithObserver(observer)},
			[]string{"unknown", "unknown", "unknown", "unknown", "unknown", "Lima C"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clear(seen)
			var ran atomic.Int32
			tk := mistakeToolkit(t, &ran, tc.opts...)
			results := tk.Run(ctx, calls)
			for i, want := range tc.want {
				got := results[i].Output
				if want == "unknown" {
					if !results[i].IsError || !strings.Contains(got, "unknown tool") {
						t.Errorf("call %s (%s): %q, want the unknown-tool error", calls[i].ID, calls[i].Name, got)
					}
				} else if got != want {
					t.Errorf("call %s (%s): %q, want %q", calls[i].ID, calls[i].Name, got, want)
				}
			}
			if calls[0].Name != "Get_Weather" || calls[0].SentName != "" {
				t.Errorf("Run changed the caller's call: %+v", calls[0])
			}
			if len(seen) == 0 {
				return
			}
			e := seen["a"]
			if tc.name == "on" {
				if e.Call.Name != "get_weather" || e.Call.SentName != "Get_Weather" || e.Tool.Name() != "get_weather" {
					t.Errorf("observer saw Name %q SentName %q Tool %q, want get_weather, Get_Weather, get_weather", e.Call.Name, e.Call.SentName, e.Tool.Name())
				}
			} else if e.Call.Name != "Get_Weather" || e.Call.SentName != "" || !e.Tool.IsZero() || e.Outcome != toolnexus.OutcomeUnknownTool {
				t.Errorf("observer saw %+v, want the name as sent, unknown", e)
			}
			if e := seen["f"]; e.Call.SentName != "" {
				t.Errorf("an exact name is marked: %+v", e.Call)
			}
		})
	}
}

// TestNearMissAmbiguous: two tools that match a name alike leave it
// unknown; Execute and ExecuteJSON map a near miss as Run does.
func TestNearMissAmbiguous(t *testing.T) {
	ctx := context.Background()
	echo := func(name string) define.Tool {
		return define.MustDefineTool(func(context.Context, struct{}) (string, error) { return name, nil }, define.WithName(name))
	}
	tk, err := toolnexus.NewToolkitWith([]define.Tool{echo("get_weather"), echo("getWeather"), echo("list_files")}, toolnexus.WithNearMissNames())
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"getWeather": "getWeather", "get_weather": "get_weather", "GetWeather": "", "get-weather": "", "ListFiles": "list_files", "list-files": "list_files"} {
		r := tk.ExecuteJSON(ctx, name, []byte(`{}`))
		m := tk.Execute(ctx, name, nil)
		if want == "" {
			if !r.IsError || !strings.Contains(r.Output, "unknown tool") || !m.IsError {
				t.Errorf("%s: %q, %q; want the unknown-tool error (two tools match)", name, r.Output, m.Output)
			}
		} else if r.Output != want || m.Output != want {
			t.Errorf("%s: %q, %q; want %q", name, r.Output, m.Output, want)
		}
	}
}

// TestRunStreamNearMiss: RunStream maps a near miss too, the call started
// early; the turn keeps the name as sent.
func TestRunStreamNearMiss(t *testing.T) {
	var ran atomic.Int32
	tk := mistakeToolkit(t, &ran, toolnexus.WithNearMissNames())
	body := `data: {"choices":[{"index":0,"delta":{"role":"assistant","tool_calls":[{"index":0,"id":"call_a","type":"function","function":{"name":"GetWeather","arguments":"{\"city\":\"Oslo\"}"}}]},"finish_reason":null}]}

data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}

data: [DONE]

`
	turn, results, err := tk.RunStream(context.Background(), adapters.ForOpenAI(), strings.NewReader(body), adapters.StreamHooks{}, toolnexus.WithEarlyStart(toolnexus.EarlyStartAll))
	if err != nil {
		t.Fatal(err)
	}
	if results[0].Output != "Oslo C" || turn.Calls[0].Name != "GetWeather" {
		t.Errorf("result %q, call %+v", results[0].Output, turn.Calls[0])
	}
}
