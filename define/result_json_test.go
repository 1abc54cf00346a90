package define_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/toolnexus/toolnexus/define"
	"github.com/toolnexus/toolnexus/internal/mediatest"
)

type weatherIn struct {
	City  string `json:"city" minLength:"2"`
	Days  int    `json:"days" minimum:"1"`
	Units string `json:"units" enum:"C,F"`
}

type weatherOut struct {
	TempC float64  `json:"temp_c"`
	Notes []string `json:"notes"`
}

// roundTrip stores r as JSON, reads it back, and checks that storing the
// copy gives the same JSON and that the copy equals r: its text, error
// flag, value as JSON, parts, and error message.
func roundTrip(t *testing.T, r define.Result) define.Result {
	t.Helper()
	data, err := json.Marshal(r)
	if err != nil {
		t.Fatalf("Marshal: %v", err)
	}
	var back define.Result
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatalf("Unmarshal(%s): %v", data, err)
	}
	again, err := json.Marshal(back)
	if err != nil {
		t.Fatalf("Marshal of the copy: %v", err)
	}
	if string(again) != string(data) {
		t.Errorf("the copy stores differently:\n%s\n%s", data, again)
	}
	if back.Output != r.Output || back.IsError != r.IsError {
		t.Errorf("copy = %q %v, want %q %v", back.Output, back.IsError, r.Output, r.IsError)
	}
	v1, ok1 := r.ValueJSON()
	v2, ok2 := back.ValueJSON()
	if ok1 && (v1 != v2 || !ok2) || !ok1 && r.Value == nil && ok2 {
		t.Errorf("ValueJSON = %s %v, want %s %v", v2, ok2, v1, ok1)
	}
	if diff := cmp.Diff(r.Parts, back.Parts); diff != "" {
		t.Errorf("parts (-want +got):\n%s", diff)
	}
	if (r.Err == nil) != (back.Err == nil) || r.Err != nil && r.Err.Error() != back.Err.Error() {
		t.Errorf("Err = %v, want %v", back.Err, r.Err)
	}
	return back
}

// TestResultJSONKinds: results of every kind define makes read back
// equal, with the error types errors.As finds and the sentinels
// errors.Is finds.
func TestResultJSONKinds(t *testing.T) {
	ctx := context.Background()
	weather := define.MustDefineTool(func(_ context.Context, in weatherIn) (weatherOut, error) {
		switch in.City {
		case "Atlantis":
			return weatherOut{}, errors.New("no such city\nin the atlas")
		case "Panic":
			panic(strings.Repeat("p", 3000))
		case "Slow":
			return weatherOut{}, context.DeadlineExceeded
		}
		return weatherOut{TempC: 21.5}, nil
	}, define.WithName("weather"))

	ok := roundTrip(t, weather.ExecuteJSON(ctx, []byte(`{"city":"Paris","days":2,"units":"C"}`)))
	if v, _ := ok.ValueJSON(); v != `{"temp_c":21.5,"notes":[]}` || string(ok.Value.(json.RawMessage)) != v {
		t.Errorf("value = %s (%T)", v, ok.Value)
	}

	bad := roundTrip(t, weather.ExecuteJSON(ctx, []byte(`{"city":"P","days":0,"units":"K","x":1,"city":"Q"}`)))
	var ae *define.ArgErrors
	if !errors.As(bad.Err, &ae) || len(ae.Errs) < 4 {
		t.Fatalf("bad arguments read back: %#v", bad.Err)
	}
	for _, s := range []error{define.ErrConstraint, define.ErrUnknownField, define.ErrDuplicateKey} {
		if !errors.Is(bad.Err, s) {
			t.Errorf("errors.Is(%v) is false after the round trip", s)
		}
	}
	paths := []string{}
	for _, a := range ae.Errs {
		paths = append(paths, a.Path)
	}
	if !strings.Contains(strings.Join(paths, " "), "/days") {
		t.Errorf("paths = %v", paths)
	}

	toolErr := roundTrip(t, weather.ExecuteJSON(ctx, []byte(`{"city":"Atlantis","days":1,"units":"C"}`)))
	var se *define.StoredError
	if !errors.As(toolErr.Err, &se) || se.Kind != "tool_error" {
		t.Errorf("tool error read back: %#v", toolErr.Err)
	}

	p := roundTrip(t, weather.ExecuteJSON(ctx, []byte(`{"city":"Panic","days":1,"units":"C"}`)))
	var pe *define.PanicError
	if !errors.As(p.Err, &pe) || pe.Tool != "weather" || len(pe.Stack) == 0 || !strings.HasPrefix(pe.Value.(string), "ppp") {
		t.Errorf("panic read back: %#v", p.Err)
	}

	slow := roundTrip(t, weather.ExecuteJSON(ctx, []byte(`{"city":"Slow","days":1,"units":"C"}`)))
	if !errors.Is(slow.Err, context.DeadlineExceeded) {
		t.Errorf("timeout read back: %#v", slow.Err)
	}

	cctx, cancel := context.WithCancel(ctx)
	cancel()
	c := roundTrip(t, weather.ExecuteJSON(cctx, []byte(`{"city":"Paris","days":1,"units":"C"}`)))
	if !errors.Is(c.Err, context.Canceled) {
		t.Errorf("cancelled read back: %#v", c.Err)
	}

	tctx, stop := context.WithTimeout(ctx, time.Nanosecond)
	defer stop()
	<-tctx.Done()
	if r := roundTrip(t, weather.ExecuteJSON(tctx, nil)); !errors.Is(r.Err, context.DeadlineExceeded) {
		t.Errorf("deadline before the call read back: %#v", r.Err)
	}

	shot := partTool(t, []define.Part{
		define.TextPart("a chart:"), define.ImagePart("", mediatest.PNG()),
		define.FilePart("application/pdf", "r.pdf", mediatest.PDF()), define.AudioPart("", mediatest.WAV()),
		define.ImageURLPart("https://example.com/x.png"),
	})
	roundTrip(t, shot.ExecuteJSON(ctx, nil))

	wrong := roundTrip(t, partTool(t, []define.Part{define.ImagePart("image/png", mediatest.GIF())}).ExecuteJSON(ctx, nil))
	var parterr *define.PartError
	if !errors.As(wrong.Err, &parterr) || parterr.Index != 0 || !errors.Is(wrong.Err, define.ErrPart) {
		t.Errorf("part error read back: %#v", wrong.Err)
	}
	large := roundTrip(t, partTool(t, []define.Part{define.ImagePart("", mediatest.PNG())}, define.WithMaxPartBytes(10)).ExecuteJSON(ctx, nil))
	if !errors.Is(large.Err, define.ErrOutputTooLarge) {
		t.Errorf("part over the limit read back: %#v", large.Err)
	}

	// A Result made by hand: its Value is encoded as outputs are.
	hand := roundTrip(t, define.Result{Output: "x", Value: map[string][]int{"a": nil}})
	if v, _ := hand.ValueJSON(); v != `{"a":[]}` {
		t.Errorf("hand-made value = %s", v)
	}
	roundTrip(t, define.Result{})
	roundTrip(t, define.Result{Output: "failed", IsError: true})
}

// TestResultJSONShape pins the stored form of a result with an error and
// one with parts.
func TestResultJSONShape(t *testing.T) {
	weather := define.MustDefineTool(func(_ context.Context, in weatherIn) (weatherOut, error) {
		return weatherOut{}, nil
	}, define.WithName("weather"))
	r := weather.ExecuteJSON(context.Background(), []byte(`{"city":"Paris","days":"2","units":"C"}`))
	data, _ := json.Marshal(r)
	want := `{"output":"invalid arguments: /days: expected integer, got \"2\"","is_error":true,` +
		`"error":{"kind":"bad_arguments","message":"/days: expected integer, got \"2\"","type":"arg_errors",` +
		`"detail":{"errors":[{"path":"/days","want":"integer","got":"\"2\"","code":"type"}]},"is":["type"]}}`
	if string(data) != want {
		t.Errorf("stored =\n%s\nwant\n%s", data, want)
	}
	part := define.Result{Parts: []define.Part{define.FilePart("text/plain", "a.txt", []byte("hi"))}}
	data, _ = json.Marshal(part)
	if want := `{"output":"","parts":[{"kind":"file","mime_type":"text/plain","data":"aGk=","filename":"a.txt"}]}`; string(data) != want {
		t.Errorf("stored =\n%s\nwant\n%s", data, want)
	}
}

// TestResultJSONBad: what is not a stored result is an error, and an error of a type this program does not know reads back
// as a StoredError with its sentinels.
func TestResultJSONBad(t *testing.T) {
	for _, in := range []string{`[]`, `{"output":1}`, `{"parts":[{"data":"!!"}]}`, `{"error":{"type":"arg_errors","detail":[1]}}`, `{"value":{"a":}}`} {
		var r define.Result
		if err := json.Unmarshal([]byte(in), &r); err == nil {
			t.Errorf("Unmarshal(%s) = %v, want an error", in, err)
		}
	}
	var r define.Result
	in := `{"output":"gone","is_error":true,"error":{"kind":"timeout","message":"the tool timed out","type":"somebody_else","is":["deadline_exceeded","no_such_sentinel"]}}`
	if err := json.Unmarshal([]byte(in), &r); err != nil {
		t.Fatal(err)
	}
	var se *define.StoredError
	if !errors.As(r.Err, &se) || se.Kind != "timeout" || !errors.Is(r.Err, context.DeadlineExceeded) || errors.Is(r.Err, context.Canceled) {
		t.Errorf("Err = %#v", r.Err)
	}
}

// errShelved is a sentinel of a package outside define, registered as
// the doc says, from an init function.
var errShelved = errors.New("shelved")

func init() {
	if err := define.RegisterSentinel("define_test.shelved", errShelved); err != nil {
		panic(err)
	}
}

// TestRegisterSentinel: a sentinel registered by another package survives
// a Result's JSON; a name or an error registered twice, an empty name and
// a nil error are refused.
func TestRegisterSentinel(t *testing.T) {
	r := define.Result{Output: "x", IsError: true, Err: fmt.Errorf("tool t: %w", errShelved)}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var back define.Result
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !errors.Is(back.Err, errShelved) || back.Err.Error() != r.Err.Error() {
		t.Errorf("read back %v (%s), want errors.Is shelved with the same text", back.Err, b)
	}
	for _, c := range []struct {
		name string
		err  error
	}{
		{"define_test.shelved", errors.New("other")},    // the name again
		{"define_test.other", errShelved},               // the error again
		{"context_canceled", errors.New("a library's")}, // a library name
		{"", errors.New("e")},
		{"define_test.nil", nil},
	} {
		if err := define.RegisterSentinel(c.name, c.err); err == nil {
			t.Errorf("RegisterSentinel(%q, %v) succeeded", c.name, c.err)
		}
	}
}
