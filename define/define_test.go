package define_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/toolnexus/toolnexus/define"
	"github.com/toolnexus/toolnexus/schema"
)

// Booking is the input of the tool most call tests run against.
type Booking struct {
	City       string   `json:"city" pattern:"^[A-Z][a-z]+$"`
	Passengers int      `json:"passengers" minimum:"1" maximum:"9"`
	Cabin      string   `json:"cabin,omitempty" enum:"economy,business"`
	Budget     *float64 `json:"budget,omitempty" exclusiveMinimum:"0"`
	Account    int64    `json:"account,omitempty"`
	Tags       []string `json:"tags,omitempty" maxItems:"3"`
}

var errNoSeats = errors.New("no seats left on that date")

func book(ctx context.Context, in Booking) (string, error) {
	switch in.City {
	case "Nowhere":
		return "", errNoSeats
	case "Boom":
		panic("exploded")
	case "Slow":
		<-ctx.Done()
		return "", ctx.Err()
	}
	return fmt.Sprintf("%s x%d %s account=%d", in.City, in.Passengers, in.Cabin, in.Account), nil
}

func bookingTool(t *testing.T) define.Tool {
	t.Helper()
	tool, err := define.DefineTool(book, define.WithName("book"), define.WithDescription("Book seats"))
	if err != nil {
		t.Fatalf("DefineTool(book) = %v", err)
	}
	return tool
}

// callCase is one set of arguments, given both as JSON text and (when it can
// be) as the map a provider's SDK would have decoded.
type callCase struct {
	name string
	json string
	args map[string]any // nil with noMap: not expressible as a decoded map
	// noMap marks cases that exist only as JSON text.
	noMap bool
	// canceled runs the call with a cancelled context.
	canceled bool

	wantErr    bool
	wantOutput string // exact output for successful calls
	wantPath   string // the JSON Pointer of the first ArgError
	wantIs     error  // errors.Is(res.Err, wantIs)
	wantInOut  string // a substring of Output for errors
}

var callCases = []callCase{
	{
		name: "valid", json: `{"city":"Paris","passengers":2,"cabin":"business"}`,
		args:       map[string]any{"city": "Paris", "passengers": 2.0, "cabin": "business"},
		wantOutput: "Paris x2 business account=0",
	},
	{
		name: "missing required", json: `{"city":"Paris"}`,
		args:    map[string]any{"city": "Paris"},
		wantErr: true, wantPath: "/passengers", wantIs: define.ErrMissing,
	},
	{
		name: "wrong type", json: `{"city":"Paris","passengers":"2"}`,
		args:    map[string]any{"city": "Paris", "passengers": "2"},
		wantErr: true, wantPath: "/passengers", wantIs: define.ErrType,
	},
	{
		name: "unknown key", json: `{"city":"Paris","passengers":2,"seat":"12A"}`,
		args:    map[string]any{"city": "Paris", "passengers": 2.0, "seat": "12A"},
		wantErr: true, wantPath: "/seat", wantIs: define.ErrUnknownField,
	},
	{
		name: "wrong-case key", json: `{"City":"Paris","passengers":2}`,
		args:    map[string]any{"City": "Paris", "passengers": 2.0},
		wantErr: true, wantPath: "/City", wantIs: define.ErrUnknownField,
	},
	{
		name: "null arguments on a tool with required fields", json: `null`,
		args:    nil,
		wantErr: true, wantPath: "/city", wantIs: define.ErrMissing,
	},
	{
		name: "empty JSON text", json: ``, noMap: true,
		wantErr: true, wantPath: "/city", wantIs: define.ErrMissing,
	},
	{
		name: "2.5 for an int", json: `{"city":"Paris","passengers":2.5}`,
		args:    map[string]any{"city": "Paris", "passengers": 2.5},
		wantErr: true, wantPath: "/passengers", wantIs: define.ErrType, wantInOut: "/passengers: expected integer, got 2.5",
	},
	{
		name: "2^53+1 into int64 stays exact", json: `{"city":"Paris","passengers":1,"account":9007199254740993}`,
		args:       map[string]any{"city": "Paris", "passengers": 1.0, "account": json.Number("9007199254740993")},
		wantOutput: "Paris x1  account=9007199254740993",
	},
	{
		name: "value outside the enum", json: `{"city":"Paris","passengers":2,"cabin":"first"}`,
		args:    map[string]any{"city": "Paris", "passengers": 2.0, "cabin": "first"},
		wantErr: true, wantPath: "/cabin", wantIs: define.ErrConstraint, wantInOut: "economy",
	},
	{
		name: "over the maximum", json: `{"city":"Paris","passengers":10}`,
		args:    map[string]any{"city": "Paris", "passengers": 10.0},
		wantErr: true, wantPath: "/passengers", wantIs: define.ErrConstraint,
	},
	{
		name: "exclusive minimum hit exactly", json: `{"city":"Paris","passengers":1,"budget":0}`,
		args:    map[string]any{"city": "Paris", "passengers": 1.0, "budget": 0.0},
		wantErr: true, wantPath: "/budget", wantIs: define.ErrConstraint,
	},
	{
		name: "pattern mismatch", json: `{"city":"paris","passengers":1}`,
		args:    map[string]any{"city": "paris", "passengers": 1.0},
		wantErr: true, wantPath: "/city", wantIs: define.ErrConstraint,
	},
	{
		name: "too many items", json: `{"city":"Paris","passengers":1,"tags":["a","b","c","d"]}`,
		args:    map[string]any{"city": "Paris", "passengers": 1.0, "tags": []any{"a", "b", "c", "d"}},
		wantErr: true, wantPath: "/tags", wantIs: define.ErrConstraint,
	},
	{
		name: "not JSON", json: `{"city":`, noMap: true,
		wantErr: true, wantIs: define.ErrSyntax,
	},
	{
		name: "duplicate key", json: `{"city":"Paris","city":"Rome","passengers":1}`, noMap: true,
		wantErr: true, wantPath: "/city", wantIs: define.ErrDuplicateKey,
	},
	{
		name: "arguments not an object", json: `[1,2]`, noMap: true,
		wantErr: true, wantPath: "", wantIs: define.ErrType,
	},
	{
		name: "handler returns an error", json: `{"city":"Nowhere","passengers":1}`,
		args:    map[string]any{"city": "Nowhere", "passengers": 1.0},
		wantErr: true, wantIs: errNoSeats, wantInOut: "no seats left on that date",
	},
	{
		name: "handler panics", json: `{"city":"Boom","passengers":1}`,
		args:    map[string]any{"city": "Boom", "passengers": 1.0},
		wantErr: true, wantInOut: "exploded",
	},
	{
		name: "cancelled context", json: `{"city":"Paris","passengers":1}`,
		args:     map[string]any{"city": "Paris", "passengers": 1.0},
		canceled: true,
		wantErr:  true, wantIs: context.Canceled,
	},
}

func TestExecute(t *testing.T) {
	tool := bookingTool(t)
	for _, tc := range callCases {
		run := func(t *testing.T, call func(ctx context.Context) define.Result) {
			ctx := context.Background()
			if tc.canceled {
				c, cancel := context.WithCancel(ctx)
				cancel()
				ctx = c
			}
			res := call(ctx)
			checkResult(t, tc, res)
		}
		t.Run(tc.name+"/json", func(t *testing.T) {
			run(t, func(ctx context.Context) define.Result { return tool.ExecuteJSON(ctx, []byte(tc.json)) })
		})
		if tc.noMap {
			continue
		}
		t.Run(tc.name+"/map", func(t *testing.T) {
			run(t, func(ctx context.Context) define.Result { return tool.Execute(ctx, tc.args) })
		})
	}
}

func checkResult(t *testing.T, tc callCase, res define.Result) {
	t.Helper()
	if res.IsError != tc.wantErr {
		t.Fatalf("IsError = %v, want %v (Output %q)", res.IsError, tc.wantErr, res.Output)
	}
	if strings.ContainsAny(res.Output, "\r\n") {
		t.Errorf("Output %q spans several lines; want one", res.Output)
	}
	if !tc.wantErr {
		if res.Output != tc.wantOutput {
			t.Errorf("Output = %q, want %q", res.Output, tc.wantOutput)
		}
		if res.Err != nil {
			t.Errorf("Err = %v, want nil", res.Err)
		}
		return
	}
	if res.Err == nil {
		t.Fatalf("Err = nil for an error result %q", res.Output)
	}
	if tc.wantIs != nil && !errors.Is(res.Err, tc.wantIs) {
		t.Errorf("errors.Is(%v, %v) = false", res.Err, tc.wantIs)
	}
	if tc.wantInOut != "" && !strings.Contains(res.Output, tc.wantInOut) {
		t.Errorf("Output = %q, want it to contain %q", res.Output, tc.wantInOut)
	}
	if tc.wantPath != "" || tc.wantIs == define.ErrType {
		var ae *define.ArgErrors
		if !errors.As(res.Err, &ae) || len(ae.Errs) == 0 {
			t.Fatalf("Err = %#v, want *define.ArgErrors", res.Err)
		}
		if got := ae.Errs[0].Path; got != tc.wantPath {
			t.Errorf("first ArgError path = %q, want %q (%v)", got, tc.wantPath, ae)
		}
		if !strings.HasPrefix(res.Output, "invalid arguments: ") {
			t.Errorf("Output = %q, want the prefix %q", res.Output, "invalid arguments: ")
		}
	}
}

func TestExecutePanicIsPanicError(t *testing.T) {
	tool := bookingTool(t)
	res := tool.ExecuteJSON(context.Background(), []byte(`{"city":"Boom","passengers":1}`))
	var pe *define.PanicError
	if !errors.As(res.Err, &pe) {
		t.Fatalf("Err = %#v, want *define.PanicError", res.Err)
	}
	if diff := cmp.Diff([]any{"book", "exploded", true}, []any{pe.Tool, pe.Value, len(pe.Stack) > 0}); diff != "" {
		t.Errorf("PanicError tool, value, has a stack (-want +got):\n%s", diff)
	}
}

func TestExecuteDeadlineDuringCall(t *testing.T) {
	tool := bookingTool(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	res := tool.ExecuteJSON(ctx, []byte(`{"city":"Slow","passengers":1}`))
	if !res.IsError || !errors.Is(res.Err, context.DeadlineExceeded) {
		t.Fatalf("ExecuteJSON(slow) = %+v, want an error result wrapping DeadlineExceeded", res)
	}
}

func TestNameFromFunction(t *testing.T) {
	tool, err := define.DefineTool(getWeather)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := tool.Name(), "get_weather"; got != want {
		t.Errorf("Name() = %q, want %q", got, want)
	}

	_, err = define.DefineTool(func(context.Context, WeatherArgs) (string, error) { return "", nil })
	if err == nil || !strings.Contains(err.Error(), "WithName") {
		t.Errorf("DefineTool(closure) error = %v, want one asking for WithName", err)
	}

	var h handlers
	tool, err = define.DefineTool(h.LookUpHTTPStatus)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := tool.Name(), "look_up_http_status"; got != want {
		t.Errorf("Name() of a method value = %q, want %q", got, want)
	}
}

type handlers struct{}

func (handlers) LookUpHTTPStatus(context.Context, WeatherArgs) (string, error) { return "", nil }

func TestDefineToolErrors(t *testing.T) {
	tests := []struct {
		name string
		def  func() error
		want string // a substring the error must contain
	}{
		{"name with a dot", func() error {
			_, err := define.DefineTool(getWeather, define.WithName("weather.get"))
			return err
		}, "portable set"},
		{"name too long", func() error {
			_, err := define.DefineTool(getWeather, define.WithName(strings.Repeat("a", 65)))
			return err
		}, "64"},
		{"empty name", func() error {
			_, err := define.DefineTool(getWeather, define.WithName(""))
			return err
		}, "empty"},
		{"non-object input", func() error {
			_, err := define.DefineTool(func(context.Context, int) (string, error) { return "", nil }, define.WithName("n"))
			return err
		}, "must be a struct"},
		{"nil function", func() error {
			var fn func(context.Context, WeatherArgs) (string, error)
			_, err := define.DefineTool(fn, define.WithName("n"))
			return err
		}, "nil function"},
		{"unsupported field type", func() error {
			type bad struct {
				C chan int `json:"c"`
			}
			_, err := define.DefineTool(func(context.Context, bad) (string, error) { return "", nil }, define.WithName("n"))
			return err
		}, "chan"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.def()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error = %v, want one containing %q", err, tc.want)
			}
		})
	}
}

// An input that is not an object is schema.ErrNotObject whichever way the
// tool is made, as it is from schema.For.
func TestNotObjectIsOneError(t *testing.T) {
	_, defErr := define.DefineTool(func(context.Context, []string) (string, error) { return "", nil }, define.WithName("n"))
	_, newErr := define.NewTool("n", json.RawMessage(`{"type":"string"}`), func(context.Context, json.RawMessage) (any, error) { return nil, nil })
	_, forErr := schema.For[[]string]()
	for what, err := range map[string]error{"DefineTool": defErr, "NewTool": newErr, "schema.For": forErr} {
		if !errors.Is(err, schema.ErrNotObject) {
			t.Errorf("%s: err = %v, want schema.ErrNotObject", what, err)
		}
	}
}

func TestMustDefineToolPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("MustDefineTool with a bad name did not panic")
		}
	}()
	define.MustDefineTool(getWeather, define.WithName("bad name"))
}

type Forecast struct {
	City  string    `json:"city"`
	Highs []float64 `json:"highs"`
}

type Status string

func TestOutputRendering(t *testing.T) {
	ctx := context.Background()
	t.Run("struct as JSON with a typed value and an output schema", func(t *testing.T) {
		tool := define.MustDefineTool(func(_ context.Context, in WeatherArgs) (Forecast, error) {
			return Forecast{City: in.City, Highs: []float64{21.5, 9007199254740993}}, nil
		}, define.WithName("forecast"))
		res := tool.ExecuteJSON(ctx, []byte(`{"city":"Oslo"}`))
		if res.IsError || res.Output != `{"city":"Oslo","highs":[21.5,9007199254740992]}` {
			t.Errorf("Output = %q (IsError %v)", res.Output, res.IsError)
		}
		if f, ok := res.Value.(Forecast); !ok || f.City != "Oslo" {
			t.Errorf("Value = %#v, want the Forecast", res.Value)
		}
		if tool.OutputSchema() == nil {
			t.Error("OutputSchema() = nil for a struct output")
		}
	})
	t.Run("named string as is", func(t *testing.T) {
		tool := define.MustDefineTool(func(context.Context, WeatherArgs) (Status, error) { return "ok", nil }, define.WithName("s"))
		if res := tool.Execute(ctx, map[string]any{"city": "x"}); res.Output != "ok" || res.Value != nil {
			t.Errorf("Execute = %+v, want Output ok and no Value", res)
		}
		if tool.OutputSchema() != nil {
			t.Errorf("OutputSchema() = %s for a string output, want nil", tool.OutputSchema())
		}
	})
	t.Run("Result passes through", func(t *testing.T) {
		tool := define.MustDefineTool(func(context.Context, WeatherArgs) (define.Result, error) {
			return define.Result{Output: "custom", IsError: true}, nil
		}, define.WithName("r"))
		if res := tool.Execute(ctx, map[string]any{"city": "x"}); res.Output != "custom" || !res.IsError {
			t.Errorf("Execute = %+v, want the handler's Result", res)
		}
	})
	t.Run("any holding a string", func(t *testing.T) {
		tool := define.MustDefineTool(func(context.Context, WeatherArgs) (any, error) { return "plain", nil }, define.WithName("a"))
		if res := tool.Execute(ctx, map[string]any{"city": "x"}); res.Output != "plain" {
			t.Errorf("Execute = %+v, want plain", res)
		}
	})
	t.Run("output that cannot be JSON", func(t *testing.T) {
		tool := define.MustDefineTool(func(context.Context, WeatherArgs) (float64, error) { return math.NaN(), nil }, define.WithName("nan"))
		res := tool.Execute(ctx, map[string]any{"city": "x"})
		if !res.IsError || res.Err == nil {
			t.Errorf("Execute = %+v, want an error result", res)
		}
	})
}

func TestZeroTool(t *testing.T) {
	var tool define.Tool
	if diff := cmp.Diff([]any{true, "", json.RawMessage(nil)}, []any{tool.IsZero(), tool.Name(), tool.InputSchema()}); diff != "" {
		t.Errorf("zero Tool IsZero, Name, InputSchema (-want +got):\n%s", diff)
	}
	res := tool.ExecuteJSON(context.Background(), []byte(`{}`))
	if !res.IsError || !errors.Is(res.Err, define.ErrZeroTool) {
		t.Errorf("zero Tool ExecuteJSON = %+v, want ErrZeroTool", res)
	}
}

func TestInputSchemaIsACopy(t *testing.T) {
	tool := bookingTool(t)
	s := tool.InputSchema()
	s[0] = 'X'
	if tool.InputSchema()[0] != '{' {
		t.Error("modifying InputSchema()'s result changed the tool")
	}
}

func TestMemo(t *testing.T) {
	tool := bookingTool(t)
	type key struct{ n int }
	calls := 0
	build := func() (int, error) { calls++; return calls, nil }
	a, _ := define.Memo(tool, key{1}, build)
	b, _ := define.Memo(tool, key{1}, build)
	c, _ := define.Memo(tool, key{2}, build)
	if diff := cmp.Diff([]int{1, 1, 2, 2}, []int{a, b, c, calls}); diff != "" {
		t.Errorf("Memo results and builds (-want +got):\n%s", diff)
	}
	_, err := define.Memo(tool, key{3}, func() (int, error) { return 0, errNoSeats })
	if !errors.Is(err, errNoSeats) {
		t.Errorf("Memo error = %v, want the build's error", err)
	}
	v, _ := define.Memo(tool, key{3}, build)
	if v != 3 {
		t.Errorf("Memo after a failed build = %v, want a fresh build (3)", v)
	}
	// The same key used with another type is an error, not a panic.
	if s, err := define.Memo(tool, key{1}, func() (string, error) { return "x", nil }); err == nil || s != "" {
		t.Errorf("Memo of a string under an int's key = %q, %v; want an error", s, err)
	}
	// The zero Tool keeps nothing: build runs each time.
	zero := 0
	for range 2 {
		if _, err := define.Memo(define.Tool{}, key{1}, func() (int, error) { zero++; return zero, nil }); err != nil {
			t.Fatal(err)
		}
	}
	if zero != 2 {
		t.Errorf("zero Tool: build ran %d times, want 2", zero)
	}
}

// TestSchemaTrees: the trees behind InputSchema and OutputSchema, copies
// the caller owns.
func TestSchemaTrees(t *testing.T) {
	tool := bookingTool(t)
	in, out := tool.InputSchemaTree(), tool.OutputSchemaTree()
	data, err := in.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(tool.InputSchema()), string(data)); diff != "" {
		t.Errorf("input tree (-want +got):\n%s", diff)
	}
	if (out == nil) != (tool.OutputSchema() == nil) {
		t.Errorf("output tree %v, OutputSchema %s", out, tool.OutputSchema())
	}
	in.Properties = nil
	in.Description = "changed"
	if diff := cmp.Diff(string(data), string(tool.InputSchema())); diff != "" {
		t.Errorf("modifying the tree changed the tool (-want +got):\n%s", diff)
	}
	if again := tool.InputSchemaTree(); again.Description == "changed" || len(again.Properties) == 0 {
		t.Errorf("modifying the tree changed the next copy: %+v", again)
	}
	if in, out := (define.Tool{}).InputSchemaTree(), (define.Tool{}).OutputSchemaTree(); in != nil || out != nil {
		t.Errorf("zero tool's trees = %v, %v; want nil", in, out)
	}
}

func TestNewTool(t *testing.T) {
	ctx := context.Background()
	echo := func(_ context.Context, args json.RawMessage) (any, error) { return string(args), nil }
	tool, err := define.NewTool("echo", json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"}},"required":["q"]}`), echo,
		define.WithDescription("Echo the arguments"))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"echo", "Echo the arguments"}, []string{tool.Name(), tool.Description()}); diff != "" {
		t.Errorf("Name, Description (-want +got):\n%s", diff)
	}
	for _, tc := range []struct {
		name, args, want string
		wantErr          bool
	}{
		{"object", `{"q":"x"}`, `{"q":"x"}`, false},
		{"spaced", ` {"q" : "x"} `, `{"q" : "x"}`, false},
		{"empty text is {}", ``, "invalid arguments: /q: expected string (required), got nothing", true},
		{"null is {}", ` null `, "invalid arguments: /q: expected string (required), got nothing", true},
		{"array", `[1]`, "invalid arguments: expected object, got [1]", true},
		{"wrong type", `{"q":1}`, "invalid arguments: /q: expected string, got 1", true},
		{"broken", `{"q":`, "invalid arguments: not a JSON object: expected a JSON value, got end of input at offset 5", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := tool.ExecuteJSON(ctx, []byte(tc.args))
			if res.IsError != tc.wantErr || res.Output != tc.want {
				t.Errorf("ExecuteJSON(%q) = %+v, want output %q error %v", tc.args, res, tc.want, tc.wantErr)
			}
		})
	}
	if res := tool.Execute(ctx, map[string]any{"q": "y"}); res.Output != `{"q":"y"}` {
		t.Errorf("Execute = %+v", res)
	}
	open, err := define.NewTool("open", json.RawMessage(`{"type":"object"}`), echo)
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range []string{``, ` null `, "\t{}\n"} {
		if res := open.ExecuteJSON(ctx, []byte(args)); res.IsError || res.Output != `{}` {
			t.Errorf("ExecuteJSON(%q) = %+v, want the handler to get {}", args, res)
		}
	}
	if res := open.Execute(ctx, nil); res.IsError || res.Output != `{}` {
		t.Errorf("Execute(nil) = %+v, want the handler to get {}", res)
	}

	for _, bad := range []string{`{"type":"string"}`, `not json`, `[]`} {
		if _, err := define.NewTool("x", json.RawMessage(bad), echo); err == nil {
			t.Errorf("NewTool(schema %s) error = nil", bad)
		}
	}
	if _, err := define.NewTool("x", json.RawMessage(`{"type":"object"}`), nil); err == nil {
		t.Error("NewTool(nil handler) error = nil")
	}
}

type (
	selfPtr        *selfPtr
	selfPtrArgs    struct{ P selfPtr }
	uint8KeyAdvice struct {
		M map[uint8]int `default:"{\"300\":1}"`
	}
)

// TestDefineTimeErrorsAreTypeErrors: every define-time problem with the
// input type is a *schema.TypeError with a sentinel, whichever rule finds it
// (a pointer type that points to itself once made DefineTool loop forever;
// a default with a map key out of the key type's range once passed the
// schema and failed in the decode plan with an internal package's error).
func TestDefineTimeErrorsAreTypeErrors(t *testing.T) {
	tests := []struct {
		name string
		def  func() error
		want error
		path string
	}{
		{"pointer to itself", func() error {
			_, err := define.DefineTool(func(context.Context, selfPtrArgs) (string, error) { return "", nil }, define.WithName("n"))
			return err
		}, schema.ErrUnsupportedType, "P"},
		{"uint8 key default out of range", func() error {
			_, err := define.DefineTool(func(context.Context, uint8KeyAdvice) (string, error) { return "", nil }, define.WithName("n"))
			return err
		}, schema.ErrInvalidTag, "M"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.def()
			if !errors.Is(err, tc.want) {
				t.Fatalf("error = %v, want one wrapping %v", err, tc.want)
			}
			var te *schema.TypeError
			if !errors.As(err, &te) {
				t.Fatalf("error %T (%v) is not a *schema.TypeError", err, err)
			}
			if diff := cmp.Diff(tc.path, te.Path); diff != "" {
				t.Errorf("path (-want +got):\n%s", diff)
			}
			if strings.Contains(err.Error(), "reflectx") {
				t.Errorf("error %q names an internal package", err)
			}
		})
	}
}

// TestTimeWithDateTimeFormat: format:"date-time" on a time.Time field is
// accepted at define time and changes nothing at call time.
func TestTimeWithDateTimeFormat(t *testing.T) {
	type args struct {
		At time.Time `json:"at" format:"date-time"`
	}
	tool, err := define.DefineTool(func(_ context.Context, a args) (string, error) { return a.At.UTC().Format(time.RFC3339), nil },
		define.WithName("at"))
	if err != nil {
		t.Fatal(err)
	}
	ok := tool.ExecuteJSON(context.Background(), []byte(`{"at":"2026-03-14T09:30:00+01:00"}`))
	bad := tool.ExecuteJSON(context.Background(), []byte(`{"at":"2026-03-14"}`))
	if diff := cmp.Diff([]any{false, "2026-03-14T08:30:00Z", true, true}, []any{ok.IsError, ok.Output, bad.IsError, errors.Is(bad.Err, define.ErrType)}); diff != "" {
		t.Errorf("ok.IsError, ok.Output, bad.IsError, bad is ErrType (-want +got):\n%s", diff)
	}
}

// A tool whose input is a pointer gets a fresh, fully decoded value per call,
// from JSON text and from a map, and never one shared with another call.
func TestPointerInputFreshPerCall(t *testing.T) {
	var got []*Booking
	tool, err := define.DefineTool(func(_ context.Context, in *Booking) (string, error) {
		got = append(got, in)
		return in.City, nil
	}, define.WithName("book_ptr"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	budget := 120.5
	want := []*Booking{
		{City: "Paris", Passengers: 2, Budget: &budget, Tags: []string{"a", "b"}},
		{City: "Rome", Passengers: 1, Tags: []string{"c"}},
		{City: "Oslo", Passengers: 3, Budget: &budget},
	}
	for _, r := range []define.Result{
		tool.ExecuteJSON(ctx, []byte(`{"city":"Paris","passengers":2,"budget":120.5,"tags":["a","b"]}`)),
		tool.Execute(ctx, map[string]any{"city": "Rome", "passengers": 1.0, "tags": []any{"c"}}),
		tool.ExecuteJSON(ctx, []byte(`{"city":"Oslo","passengers":3,"budget":120.5}`)),
	} {
		if r.IsError {
			t.Fatalf("call failed: %s", r.Output)
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("inputs (-want +got):\n%s", diff)
	}
	if len(got) == 3 && (got[0] == got[2] || got[0].Budget == got[2].Budget) {
		t.Errorf("two calls shared memory: %p and %p", got[0], got[2])
	}
}

// Values a handler keeps stay as they were decoded, whatever later calls
// decode: the memory a call decodes into is reused only for input types
// without user methods, and only after the value was copied out.
func TestKeptInputsSurviveLaterCalls(t *testing.T) {
	var kept []Booking
	tool, err := define.DefineTool(func(_ context.Context, in Booking) (string, error) {
		kept = append(kept, in)
		return "", nil
	}, define.WithName("keep"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var want []Booking
	for i := range 200 {
		city := fmt.Sprintf("City%c", 'a'+i%26)
		tags := []string{fmt.Sprintf("t%d", i), fmt.Sprintf("u%d", i)}
		budget := float64(i + 1)
		want = append(want, Booking{City: "X" + strings.ToLower(city), Passengers: 1 + i%9, Budget: &budget, Tags: tags})
		var r define.Result
		if i%2 == 0 {
			r = tool.ExecuteJSON(ctx, fmt.Appendf(nil, `{"city":%q,"passengers":%d,"budget":%d,"tags":[%q,%q]}`, "X"+strings.ToLower(city), 1+i%9, i+1, tags[0], tags[1]))
		} else {
			r = tool.Execute(ctx, map[string]any{"city": "X" + strings.ToLower(city), "passengers": float64(1 + i%9), "budget": float64(i + 1), "tags": []any{tags[0], tags[1]}})
		}
		if r.IsError {
			t.Fatalf("call %d: %s", i, r.Output)
		}
	}
	if diff := cmp.Diff(want, kept); diff != "" {
		t.Errorf("kept inputs (-want +got):\n%s", diff)
	}
}

// stamp keeps a pointer into the value it is decoded into, as a user's
// UnmarshalText may; a tool with such an input must not reuse that memory.
type stamp struct {
	self *stamp
	Text string
}

func (s *stamp) UnmarshalText(b []byte) error {
	s.self, s.Text = s, string(b)
	return nil
}

type stamped struct {
	S stamp `json:"s"`
}

func TestUserMethodInputsAreFresh(t *testing.T) {
	var kept []*stamp
	tool, err := define.DefineTool(func(_ context.Context, in stamped) (string, error) {
		kept = append(kept, in.S.self)
		return "", nil
	}, define.WithName("stamped"))
	if err != nil {
		t.Fatal(err)
	}
	for i := range 50 {
		if r := tool.ExecuteJSON(context.Background(), fmt.Appendf(nil, `{"s":"v%d"}`, i)); r.IsError {
			t.Fatalf("call %d: %s", i, r.Output)
		}
	}
	for i, p := range kept {
		if want := fmt.Sprintf("v%d", i); p.Text != want {
			t.Errorf("call %d: the value UnmarshalText kept reads %q, want %q (its memory was reused)", i, p.Text, want)
		}
	}
}
