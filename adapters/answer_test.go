package adapters_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
	"github.com/toolnexus/toolnexus/golden"
	"github.com/toolnexus/toolnexus/internal/zoo"
)

// Trip is the answer of the reply fixtures in testdata/golden/answers:
// the model plans a trip. Its budget in the fixtures, 9007199254740993,
// is above 2^53: it must come back exact.
type Trip struct {
	City   string   `json:"city" minLength:"1"`
	Days   int      `json:"days" minimum:"1" maximum:"30"`
	Budget int64    `json:"budget,omitempty"`
	Stops  []string `json:"stops,omitempty" maxItems:"5"`
}

var tripAnswer = define.MustDefineAnswer[Trip](define.WithDescription("The planned trip"))

func answersDir(parts ...string) string {
	return filepath.Join(append([]string{"..", "testdata", "golden", "answers"}, parts...)...)
}

// providerNamed returns the Provider of a registered home, with opts.
func providerNamed(t testing.TB, name string, opts ...adapters.Option) adapters.Provider {
	t.Helper()
	switch name {
	case adapters.NameOpenAI:
		return adapters.ForOpenAI(opts...)
	case adapters.NameOpenAIResponses:
		return adapters.ForOpenAIResponses(opts...)
	case adapters.NameAnthropic:
		return adapters.ForAnthropic(opts...)
	case adapters.NameGemini:
		return adapters.ForGemini(opts...)
	case adapters.NameBedrock:
		return adapters.ForBedrock(opts...)
	case adapters.NameOllama:
		return adapters.ForOllama(opts...)
	case adapters.NameMistral:
		return adapters.ForMistral(opts...)
	case adapters.NameMCP:
		return adapters.ForMCP(opts...)
	}
	t.Fatalf("no provider %q", name)
	return nil
}

// answerOutcome is what a fixture's golden holds: the decoded answer, or
// the error, its sentinel and what it carries.
type answerOutcome struct {
	Value *Trip    `json:"value,omitempty"`
	Error string   `json:"error,omitempty"`
	Is    string   `json:"is,omitempty"`
	Stop  string   `json:"stop,omitempty"`
	Words string   `json:"words,omitempty"`
	Calls []string `json:"calls,omitempty"`
	Paths []string `json:"paths,omitempty"` // an ArgErrors' paths
}

var answerSentinels = []struct {
	name string
	err  error
}{
	{"ErrRefused", adapters.ErrRefused}, {"ErrIncomplete", adapters.ErrIncomplete},
	{"ErrToolCalls", adapters.ErrToolCalls}, {"ErrNoAnswer", adapters.ErrNoAnswer},
	{"ErrReplyShape", adapters.ErrReplyShape}, {"ErrArguments", adapters.ErrArguments},
	{"ErrConstraint", define.ErrConstraint}, {"ErrType", define.ErrType}, {"ErrSyntax", define.ErrSyntax},
}

func outcomeOf(v Trip, err error) answerOutcome {
	if err == nil {
		return answerOutcome{Value: &v}
	}
	o := answerOutcome{Error: err.Error()}
	for _, s := range answerSentinels {
		if errors.Is(err, s.err) {
			o.Is = s.name
			break
		}
	}
	var ae *adapters.AnswerError
	if errors.As(err, &ae) {
		o.Stop, o.Words, o.Calls = ae.Stop, ae.Words, ae.Calls
	}
	var args *define.ArgErrors
	if errors.As(err, &args) {
		for _, e := range args.Errs {
			o.Paths = append(o.Paths, e.Path)
		}
	}
	return o
}

// answerReplyCases are the reply fixtures of testdata/golden/answers/replies,
// each read in the mode its request would have asked for the answer:
// through the response format, or as a forced tool call (AnswerTool).
var answerReplyCases = map[string][]struct {
	file   string
	byTool bool
}{
	"openai": {{"answer", false}, {"refusal", false}, {"cut", false}, {"tool_calls", false}, {"blank", false},
		{"invalid", false}, {"content_filter", false}, {"strict_nulls", false}, {"forced", true}, {"forced_with_other", true}},
	"openai-responses": {{"answer", false}, {"refusal", false}, {"incomplete", false}, {"function_call", false}, {"forced", true}},
	"anthropic":        {{"answer", false}, {"refusal", false}, {"max_tokens", false}, {"tool_use", false}, {"forced", true}, {"forced_text", true}},
	"gemini":           {{"answer", false}, {"max_tokens", false}, {"function_call", false}, {"forced", true}, {"thought_answer", false}},
	"bedrock":          {{"answer", false}, {"max_tokens", false}, {"guardrail", false}, {"tool_use", false}, {"forced", true}},
	"ollama":           {{"answer", false}, {"length", false}, {"tool_calls", false}},
	"mistral":          {{"answer", false}, {"length", false}, {"tool_calls", false}, {"forced", true}},
}

// TestAnswerReplies reads every reply fixture's answer and compares the
// outcome with its golden (<case>.golden.json beside it): the Trip, or the
// error and what it carries. Every provider with a model answer has
// fixtures, and every fixture file has a case.
func TestAnswerReplies(t *testing.T) {
	for _, p := range adapters.Providers() {
		if p.Name() == adapters.NameMCP {
			continue
		}
		if _, ok := answerReplyCases[p.Name()]; !ok {
			t.Errorf("%s: no answer reply fixtures", p.Name())
		}
	}
	for prov, cases := range answerReplyCases {
		files, err := filepath.Glob(answersDir("replies", prov, "*.json"))
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, f := range files {
			if !strings.HasSuffix(f, ".golden.json") {
				want = append(want, strings.TrimSuffix(filepath.Base(f), ".json"))
			}
		}
		var got []string
		for _, c := range cases {
			got = append(got, c.file)
		}
		slices.Sort(want)
		slices.Sort(got)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: fixture files and cases differ (-files +cases):\n%s", prov, diff)
		}
		for _, c := range cases {
			t.Run(prov+"/"+c.file, func(t *testing.T) {
				var opts []adapters.Option
				if c.byTool {
					opts = append(opts, adapters.AnswerTool())
				}
				p := providerNamed(t, prov, opts...)
				data, err := os.ReadFile(answersDir("replies", prov, c.file+".json"))
				if err != nil {
					t.Fatal(err)
				}
				turn, err := p.Parse(data)
				if err != nil {
					t.Fatalf("Parse: %v", err)
				}
				v, err := adapters.DecodeAnswer(p, tripAnswer, turn)
				golden.JSON(t, answersDir("replies", prov, c.file+".golden.json"), outcomeOf(v, err))
			})
		}
	}
}

// answerStreamCases are the stream fixtures of testdata/golden/answers/streams.
var answerStreamCases = map[string][]struct {
	file   string
	byTool bool
}{
	"openai":           {{"answer.sse", false}, {"refusal.sse", false}, {"cut.sse", false}},
	"openai-responses": {{"answer.sse", false}},
	"anthropic":        {{"answer.sse", false}, {"forced.sse", true}},
	"gemini":           {{"answer.sse", false}},
	"ollama":           {{"answer.ndjson", false}},
	"mistral":          {{"answer.sse", false}},
}

// TestAnswerStreams reads every stream fixture through a Stream with
// AnswerHooks, byte by byte and whole: the answer decoded at the end is
// the golden's, the partial texts grow by the stream's pieces, and the
// last one is the answer's text.
func TestAnswerStreams(t *testing.T) {
	for prov, cases := range answerStreamCases {
		for _, c := range cases {
			t.Run(prov+"/"+c.file, func(t *testing.T) {
				var opts []adapters.Option
				if c.byTool {
					opts = append(opts, adapters.AnswerTool())
				}
				p := providerNamed(t, prov, opts...)
				body, err := os.ReadFile(answersDir("streams", prov, c.file))
				if err != nil {
					t.Fatal(err)
				}
				var partials []string
				var texts []string
				hooks, err := adapters.AnswerHooks(p, tripAnswer, func(text []byte) { partials = append(partials, string(text)) },
					adapters.StreamHooks{Text: func(d string) { texts = append(texts, d) }})
				if err != nil {
					t.Fatal(err)
				}
				s, err := adapters.NewStream(p, hooks)
				if err != nil {
					t.Fatal(err)
				}
				for i := range body { // byte by byte: the hooks see every piece in order
					if _, err := s.Write(body[i : i+1]); err != nil {
						t.Fatalf("Write at %d: %v", i, err)
					}
				}
				turn, err := s.Close()
				if err != nil {
					t.Fatalf("Close: %v", err)
				}
				v, err := adapters.DecodeAnswer(p, tripAnswer, turn)
				golden.JSON(t, answersDir("streams", prov, strings.TrimSuffix(c.file, filepath.Ext(c.file))+".golden.json"), outcomeOf(v, err))

				whole, err := p.ParseStream(bytes.NewReader(body))
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(turn.Text+"|"+turn.Refusal+"|"+turn.Stop, whole.Text+"|"+whole.Refusal+"|"+whole.Stop); diff != "" {
					t.Errorf("byte by byte and whole differ:\n%s", diff)
				}
				text, aerr := adapters.AnswerText(p, tripAnswer, turn)
				switch {
				case c.byTool && aerr == nil:
					if len(partials) != 1 || partials[0] != string(text) {
						t.Errorf("partials = %q, want the call's arguments once: %s", partials, text)
					}
				case aerr == nil:
					if len(partials) == 0 || partials[len(partials)-1] != string(text) {
						t.Fatalf("last partial = %q, want %s", partials, text)
					}
					for i := 1; i < len(partials); i++ {
						if !strings.HasPrefix(partials[i], partials[i-1]) {
							t.Errorf("partial %d %q does not extend %q", i, partials[i], partials[i-1])
						}
					}
					if strings.Join(texts, "") != turn.Text {
						t.Errorf("the Text hook saw %q, want %q", strings.Join(texts, ""), turn.Text)
					}
				}
			})
		}
	}
}

// TestAnswerBedrockStream: Bedrock's binary event stream of an answer in
// text pieces, and of a forced tool call, read as the replies are.
func TestAnswerBedrockStream(t *testing.T) {
	pieces := []string{`{"city":"Ky`, `oto","days":4,`, `"budget":9007199254740993}`}
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	text := cat(bStart(), bText(0, q(pieces[0])), bText(0, q(pieces[1])), bText(0, q(pieces[2])), bStop(0), bMsgStop("end_turn"), bMeta())
	tool := cat(bStart(), bUse(0, "tooluse_a1", "trip"), bInput(0, q(pieces[0])), bInput(0, q(pieces[1])), bInput(0, q(pieces[2])), bStop(0), bMsgStop("tool_use"), bMeta())
	cut := cat(bStart(), bText(0, q(pieces[0])), bStop(0), bMsgStop("max_tokens"), bMeta())
	want := Trip{City: "Kyoto", Days: 4, Budget: 9007199254740993}
	for _, c := range []struct {
		name   string
		body   []byte
		byTool bool
		is     error
	}{
		{"text", text, false, nil},
		{"tool", tool, true, nil},
		{"cut", cut, false, adapters.ErrIncomplete},
	} {
		t.Run(c.name, func(t *testing.T) {
			var opts []adapters.Option
			if c.byTool {
				opts = append(opts, adapters.AnswerTool())
			}
			p := adapters.ForBedrock(opts...)
			var last string
			hooks, err := adapters.AnswerHooks(p, tripAnswer, func(b []byte) { last = string(b) }, adapters.StreamHooks{})
			if err != nil {
				t.Fatal(err)
			}
			s, _ := adapters.NewStream(p, hooks)
			if _, err := s.Write(c.body); err != nil {
				t.Fatal(err)
			}
			turn, err := s.Close()
			if err != nil {
				t.Fatal(err)
			}
			got, err := adapters.DecodeAnswer(p, tripAnswer, turn)
			if c.is != nil {
				if !errors.Is(err, c.is) {
					t.Errorf("DecodeAnswer = %v, want %v", err, c.is)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, want) {
				t.Errorf("DecodeAnswer = %+v, %v", got, err)
			}
			if last != strings.Join(pieces, "") {
				t.Errorf("last partial = %q", last)
			}
		})
	}
}

// formatVariant is one way of asking a provider for an answer.
type formatVariant struct {
	dir string
	p   adapters.Provider
}

func formatVariants() []formatVariant {
	return []formatVariant{
		{"openai", adapters.ForOpenAI()},
		{"openai_nonstrict", adapters.ForOpenAI(adapters.Strict(false))},
		{"openai_responses", adapters.ForOpenAIResponses()},
		{"anthropic", adapters.ForAnthropic()},
		{"gemini", adapters.ForGemini()},
		{"gemini_jsonschema", adapters.ForGemini(adapters.GeminiJSONSchema())},
		{"gemini_parameters", adapters.ForGemini(adapters.GeminiParameters())},
		{"bedrock", adapters.ForBedrock()},
		{"ollama", adapters.ForOllama()},
		{"mistral", adapters.ForMistral()},
		{"xai", adapters.ForOpenAI(adapters.Server(adapters.XAI))},
	}
}

// zooAnswer defines the answer of type T, for the golden cases.
func zooAnswer[T any]() (define.AnswerFormat, error) {
	a, err := define.DefineAnswer[T](define.WithDescription("Zoo answer."))
	return a.Format(), err
}

// zooAnswers are the schema zoo's types as answers (the same names and
// types as zoo.Cases), then types that are wrapped in {"value": ...}.
var zooAnswers = []struct {
	name string
	def  func() (define.AnswerFormat, error)
}{
	{"empty", zooAnswer[zoo.Empty]},
	{"scalars", zooAnswer[zoo.Scalars]},
	{"no_tags", zooAnswer[zoo.NoTags]},
	{"optional", zooAnswer[zoo.Optional]},
	{"pointers", zooAnswer[zoo.Pointers]},
	{"collections", zooAnswer[zoo.Collections]},
	{"well_known", zooAnswer[zoo.WellKnown]},
	{"embedded", zooAnswer[zoo.Embedded]},
	{"dominance", zooAnswer[zoo.Dominance]},
	{"shared_struct", zooAnswer[zoo.SharedStruct]},
	{"node", zooAnswer[zoo.Node]},
	{"mutual", zooAnswer[zoo.A]},
	{"tree_holder", zooAnswer[zoo.TreeHolder]},
	{"constraints", zooAnswer[zoo.Constraints]},
	{"defaults", zooAnswer[zoo.Defaults]},
	{"required_overrides", zooAnswer[zoo.RequiredOverrides]},
	{"text_types", zooAnswer[zoo.TextTypes]},
	{"enum_method", zooAnswer[zoo.EnumMethod]},
	{"pointer_root", zooAnswer[*zoo.Scalars]},
	{"map_root", zooAnswer[map[string]int]},
	{"any_root", zooAnswer[any]},
	{"search", zooAnswer[zoo.Search]},
	{"elements", zooAnswer[zoo.Elements]},
	{"peer_tags", zooAnswer[zoo.PeerTags]},
	{"wrapped_slice", zooAnswer[[]zoo.Point]},
	{"wrapped_int", zooAnswer[int8]},
	{"wrapped_time", zooAnswer[time.Time]},
	{"wrapped_pointer", zooAnswer[*string]},
	{"wrapped_nodes", zooAnswer[[]zoo.Node]},
}

// TestZooAnswersMatchZoo: the zoo's cases, each as an answer of its type.
func TestZooAnswersMatchZoo(t *testing.T) {
	if len(zooAnswers) < len(zoo.Cases) {
		t.Fatalf("%d zoo answers for %d zoo cases", len(zooAnswers), len(zoo.Cases))
	}
	for i, c := range zoo.Cases {
		f, err := zooAnswers[i].def()
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		if zooAnswers[i].name != c.Name || f.Type() != c.Type {
			t.Errorf("zoo answer %d is %s %v, want %s %v", i, zooAnswers[i].name, f.Type(), c.Name, c.Type)
		}
		if f.Wrapped() {
			t.Errorf("%s: a tool input type wrapped", c.Name)
		}
	}
	for _, a := range zooAnswers[len(zoo.Cases):] {
		if f, err := a.def(); err != nil || !f.Wrapped() {
			t.Errorf("%s: %v, wrapped %v", a.name, err, f.Wrapped())
		}
	}
}

// TestResponseFormatGolden renders every zoo answer for every provider's
// response format, twice (the second from the cache, the same bytes), and
// compares with testdata/golden/answers/formats/<variant>/<case>.json. A
// case a provider cannot take is kept as {"error": "..."}.
func TestResponseFormatGolden(t *testing.T) {
	for _, za := range zooAnswers {
		t.Run(za.name, func(t *testing.T) {
			f, err := za.def()
			if err != nil {
				t.Fatal(err)
			}
			for _, v := range formatVariants() {
				req, err := adapters.ResponseFormat(v.p, f)
				var value any = map[string]any{"field": req.Field, "value": req.Value}
				if err != nil {
					value = map[string]string{"error": err.Error()}
				} else {
					if !json.Valid(req.Value) || !req.Tool.IsZero() {
						t.Errorf("%s: value %s, tool %v", v.dir, req.Value, req.Tool)
					}
					again, err := adapters.ResponseFormat(v.p, f)
					if err != nil || again.Field != req.Field || !bytes.Equal(again.Value, req.Value) {
						t.Errorf("%s: second rendering differs: %s %v", v.dir, again.Value, err)
					}
				}
				golden.JSON(t, answersDir("formats", v.dir, za.name+".json"), value)
			}
		})
	}
}

// TestResponseFormatSchemas holds the rendered schemas to the rules of
// each provider, as the tool renderings are held (render_test.go): the
// strict variants to OpenAI's Structured Outputs rules; every schema
// decodes the answers a model constrained to it would send.
func TestResponseFormatSchemas(t *testing.T) {
	type row struct {
		Name string `json:"name" minLength:"2" pattern:"^[A-Z]"`
		Qty  int    `json:"qty,omitempty" minimum:"1"`
	}
	a := define.MustDefineAnswer[[]row]()
	schemaOf := func(dir string, field string, value json.RawMessage) map[string]any {
		var v map[string]any
		mustUnmarshal(t, value, &v)
		switch dir {
		case "openai", "openai_nonstrict", "xai", "mistral":
			return v["json_schema"].(map[string]any)["schema"].(map[string]any)
		case "openai_responses":
			return v["format"].(map[string]any)["schema"].(map[string]any)
		case "anthropic":
			return v["format"].(map[string]any)["schema"].(map[string]any)
		case "bedrock":
			var s map[string]any
			mustUnmarshal(t, []byte(v["textFormat"].(map[string]any)["structure"].(map[string]any)["jsonSchema"].(map[string]any)["schema"].(string)), &s)
			return s
		case "ollama":
			return v
		}
		for _, k := range []string{"responseSchema", "responseJsonSchema"} {
			if s, ok := v[k].(map[string]any); ok {
				return s
			}
		}
		t.Fatalf("%s: no schema in %s", dir, value)
		return nil
	}
	for _, v := range formatVariants() {
		req, err := adapters.ResponseFormat(v.p, a)
		if err != nil {
			t.Fatalf("%s: %v", v.dir, err)
		}
		s := schemaOf(v.dir, req.Field, req.Value)
		props, _ := s["properties"].(map[string]any)
		if s["type"] != "object" || props["value"] == nil {
			t.Errorf("%s: root %v is not the {value} wrapper", v.dir, s)
		}
		if rule := openAIRules(map[bool]string{true: "openai_strict"}[v.dir == "openai" || v.dir == "openai_responses"]); rule != nil {
			walkSchemas(t, v.dir, s, true, rule)
		}
	}
}

// TestResponseFormatStrictness: the answer's pin, then the Provider's
// option, then strict where the schema fits (a map does not).
func TestResponseFormatStrictness(t *testing.T) {
	type fits struct {
		A string `json:"a"`
	}
	type open struct {
		M map[string]int `json:"m"`
	}
	strictOf := func(t *testing.T, p adapters.Provider, a define.AnyAnswer) (bool, error) {
		req, err := adapters.ResponseFormat(p, a)
		if err != nil {
			return false, err
		}
		var v struct {
			JSONSchema struct {
				Strict *bool `json:"strict"`
			} `json:"json_schema"`
		}
		mustUnmarshal(t, req.Value, &v)
		if v.JSONSchema.Strict == nil {
			t.Fatalf("no strict member: %s", req.Value)
		}
		return *v.JSONSchema.Strict, nil
	}
	for _, c := range []struct {
		name    string
		p       adapters.Provider
		a       define.AnyAnswer
		want    bool
		wantErr error
	}{
		{"fits", adapters.ForOpenAI(), define.MustDefineAnswer[fits](), true, nil},
		{"open map", adapters.ForOpenAI(), define.MustDefineAnswer[open](), false, nil},
		{"Strict(false)", adapters.ForOpenAI(adapters.Strict(false)), define.MustDefineAnswer[fits](), false, nil},
		{"Strict(true) open map", adapters.ForOpenAI(adapters.Strict(true)), define.MustDefineAnswer[open](), false, adapters.ErrUnsupported},
		{"pinned strict open map", adapters.ForOpenAI(), define.MustDefineAnswer[open](define.WithStrict(true)), false, adapters.ErrUnsupported},
		{"pinned loose wins over Strict(true)", adapters.ForOpenAI(adapters.Strict(true)), define.MustDefineAnswer[fits](define.WithStrict(false)), false, nil},
		{"StrictWherePossible", adapters.ForOpenAI(adapters.StrictWherePossible()), define.MustDefineAnswer[open](), false, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := strictOf(t, c.p, c.a)
			if c.wantErr != nil {
				if !errors.Is(err, c.wantErr) {
					t.Errorf("ResponseFormat = %v, want %v", err, c.wantErr)
				}
				if err != nil && !strings.Contains(err.Error(), "pinned strict") && strings.Contains(c.name, "pinned") {
					t.Errorf("the error does not say the answer is pinned: %v", err)
				}
				return
			}
			if err != nil || got != c.want {
				t.Errorf("strict = %v, %v; want %v", got, err, c.want)
			}
		})
	}
	// xAI refuses "strict": its format has none.
	req, err := adapters.ResponseFormat(adapters.ForOpenAI(adapters.Server(adapters.XAI)), define.MustDefineAnswer[fits]())
	if err != nil || bytes.Contains(req.Value, []byte(`"strict"`)) {
		t.Errorf("xAI format = %s, %v; want no strict member", req.Value, err)
	}
}

// TestResponseFormatByTool: with AnswerTool (or DeepSeek's profile) the
// answer is a forced tool call: the answer's tool and each provider's
// choice that forces a tool call.
func TestResponseFormatByTool(t *testing.T) {
	want := map[string]string{
		"openai":           `tool_choice "required"`,
		"openai-responses": `tool_choice "required"`,
		"anthropic":        `tool_choice {"type":"any"}`,
		"gemini":           `toolConfig {"functionCallingConfig":{"mode":"ANY"}}`,
		"bedrock":          `toolChoice {"any":{}}`,
		"mistral":          `tool_choice "any"`,
		"deepseek":         `tool_choice "required"`,
	}
	ps := []adapters.Provider{adapters.ForOpenAI(adapters.AnswerTool()), adapters.ForOpenAIResponses(adapters.AnswerTool()),
		adapters.ForAnthropic(adapters.AnswerTool()), adapters.ForGemini(adapters.AnswerTool()), adapters.ForBedrock(adapters.AnswerTool()),
		adapters.ForMistral(adapters.AnswerTool()), adapters.ForOpenAI(adapters.Server(adapters.DeepSeek))}
	for _, p := range ps {
		req, err := adapters.ResponseFormat(p, tripAnswer)
		if err != nil {
			t.Errorf("%s: %v", p.Name(), err)
			continue
		}
		if got := req.Field + " " + string(req.Value); got != want[p.Name()] {
			t.Errorf("%s: %s, want %s", p.Name(), got, want[p.Name()])
		}
		if req.Tool != tripAnswer.Format().Tool() || req.Tool.Name() != "trip" {
			t.Errorf("%s: Tool = %v", p.Name(), req.Tool)
		}
		// The tool renders with the request's tools; the option changes no
		// rendering of tools.
		with, err := p.Tools([]define.Tool{req.Tool})
		if err != nil {
			t.Errorf("%s: Tools: %v", p.Name(), err)
		}
		plain, _ := providerNamed(t, map[string]string{"deepseek": "openai"}[p.Name()]+map[bool]string{true: p.Name()}[p.Name() != "deepseek"]).Tools([]define.Tool{req.Tool})
		if p.Name() != "deepseek" && !reflect.DeepEqual(with, plain) {
			t.Errorf("%s: AnswerTool changed the tools: %v vs %v", p.Name(), with, plain)
		}
	}
	// Ollama has no tool choice: AnswerTool does not apply.
	if _, err := adapters.ForOllama(adapters.AnswerTool()).Tools(nil); err == nil || !strings.Contains(err.Error(), "AnswerTool() does not apply to Ollama") {
		t.Errorf("Ollama Tools with AnswerTool = %v", err)
	}
	if _, err := adapters.ResponseFormat(adapters.ForOllama(adapters.AnswerTool()), tripAnswer); err == nil {
		t.Error("Ollama ResponseFormat with AnswerTool: no error")
	}
}

func TestResponseFormatErrors(t *testing.T) {
	var zero define.Answer[Trip]
	type many struct {
		A1  string `json:"a1,omitempty"`
		A2  string `json:"a2,omitempty"`
		A3  string `json:"a3,omitempty"`
		A4  string `json:"a4,omitempty"`
		A5  string `json:"a5,omitempty"`
		A6  string `json:"a6,omitempty"`
		A7  string `json:"a7,omitempty"`
		A8  string `json:"a8,omitempty"`
		A9  string `json:"a9,omitempty"`
		A10 string `json:"a10,omitempty"`
		A11 string `json:"a11,omitempty"`
		A12 string `json:"a12,omitempty"`
		A13 string `json:"a13,omitempty"`
		A14 string `json:"a14,omitempty"`
		A15 string `json:"a15,omitempty"`
		A16 string `json:"a16,omitempty"`
		A17 string `json:"a17,omitempty"`
		A18 string `json:"a18,omitempty"`
		A19 string `json:"a19,omitempty"`
		A20 string `json:"a20,omitempty"`
		A21 string `json:"a21,omitempty"`
		A22 string `json:"a22,omitempty"`
		A23 string `json:"a23,omitempty"`
		A24 string `json:"a24,omitempty"`
		A25 string `json:"a25,omitempty"`
	}
	type dotted struct {
		A string `json:"a b"`
	}
	for _, c := range []struct {
		name string
		p    adapters.Provider
		a    define.AnyAnswer
		want string
		is   error
	}{
		{"nil provider", nil, tripAnswer, "adapters: ResponseFormat: no provider (nil)", nil},
		{"mcp", adapters.ForMCP(), tripAnswer, "adapters: ResponseFormat: MCP has no model answer", nil},
		{"zero answer", adapters.ForOpenAI(), zero, "", define.ErrZeroAnswer},
		{"nil answer", adapters.ForOpenAI(), nil, "", define.ErrZeroAnswer},
		{"anthropic budget", adapters.ForAnthropic(), define.MustDefineAnswer[many](), "25 optional parameters", adapters.ErrLimit},
		{"key rule", adapters.ForAnthropic(), define.MustDefineAnswer[dotted](), `property key "a b"`, adapters.ErrPropertyKey},
		{"bad option", adapters.ForBedrock(adapters.Strict(true)), tripAnswer, "does not apply to Bedrock", adapters.ErrOption},
		{"gemini parameters", adapters.ForGemini(adapters.GeminiParameters()), define.MustDefineAnswer[map[string]int](), "", adapters.ErrUnsupported},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := adapters.ResponseFormat(c.p, c.a)
			if err == nil {
				t.Fatal("no error")
			}
			if c.want != "" && !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q does not contain %q", err, c.want)
			}
			if c.is != nil && !errors.Is(err, c.is) {
				t.Errorf("error %v is not %v", err, c.is)
			}
		})
	}
}

// TestAnswerStrictNulls: a strict OpenAI answer's optional fields come
// back null, and mean absent; where the format was surely not strict
// (pinned loose, Strict(false), a provider without OpenAI's subset) a
// null is still a type error.
func TestAnswerStrictNulls(t *testing.T) {
	data, err := os.ReadFile(answersDir("replies", "openai", "strict_nulls.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		p    adapters.Provider
		a    define.Answer[Trip]
		ok   bool
	}{
		{"default", adapters.ForOpenAI(), tripAnswer, true},
		{"Strict(true)", adapters.ForOpenAI(adapters.Strict(true)), tripAnswer, true},
		{"StrictWherePossible", adapters.ForOpenAI(adapters.StrictWherePossible()), tripAnswer, true},
		{"Strict(false)", adapters.ForOpenAI(adapters.Strict(false)), tripAnswer, false},
		{"pinned loose", adapters.ForOpenAI(), define.MustDefineAnswer[Trip](define.WithStrict(false)), false},
		{"xai", adapters.ForOpenAI(adapters.Server(adapters.XAI)), tripAnswer, false},
		{"tool, not strict", adapters.ForOpenAI(adapters.AnswerTool()), tripAnswer, false},
		{"mistral", adapters.ForMistral(), tripAnswer, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			turn, err := c.p.Parse(data)
			if err != nil {
				t.Fatal(err)
			}
			if c.name == "tool, not strict" { // the same answer, as a call of its tool
				turn.Calls = []adapters.Call{{ID: "call_1", Name: "trip", Args: json.RawMessage(turn.Text)}}
			}
			got, err := adapters.DecodeAnswer(c.p, c.a, turn)
			if c.ok {
				if err != nil || !reflect.DeepEqual(got, Trip{City: "Kyoto", Days: 4}) {
					t.Errorf("DecodeAnswer = %+v, %v", got, err)
				}
				return
			}
			if !errors.Is(err, define.ErrType) {
				t.Errorf("DecodeAnswer = %+v, %v; want a type error for the nulls", got, err)
			}
		})
	}
	// A strict tool answer reads nulls too.
	p := adapters.ForOpenAI(adapters.AnswerTool(), adapters.Strict(true))
	turn := adapters.Turn{Calls: []adapters.Call{{ID: "c", Name: "trip", Args: json.RawMessage(`{"city":"Oslo","days":2,"budget":null,"stops":null}`)}}}
	if got, err := adapters.DecodeAnswer(p, tripAnswer, turn); err != nil || got.City != "Oslo" {
		t.Errorf("strict tool DecodeAnswer = %+v, %v", got, err)
	}
}

// TestAnswerTextErrors: the calls that cannot read an answer at all.
func TestAnswerTextErrors(t *testing.T) {
	var zero define.AnswerFormat
	turn := adapters.Turn{Text: `{}`}
	for _, c := range []struct {
		name string
		err  error
		want string
	}{
		{"nil provider", func() error { _, err := adapters.AnswerText(nil, tripAnswer, turn); return err }(), "no provider"},
		{"mcp", func() error { _, err := adapters.AnswerText(adapters.ForMCP(), tripAnswer, turn); return err }(), "MCP has no model answer"},
		{"zero", func() error { _, err := adapters.AnswerText(adapters.ForOpenAI(), zero, turn); return err }(), "zero Answer"},
		{"decode zero", func() error {
			_, err := adapters.DecodeAnswer(adapters.ForOpenAI(), define.Answer[Trip]{}, turn)
			return err
		}(), "zero Answer"},
		{"decode nil provider", func() error {
			_, err := adapters.DecodeAnswer(nil, tripAnswer, turn)
			return err
		}(), "adapters: DecodeAnswer: no provider"},
		{"decode mcp", func() error {
			_, err := adapters.DecodeAnswer(adapters.ForMCP(), tripAnswer, turn)
			return err
		}(), "adapters: DecodeAnswer: MCP has no model answer"},
		{"decode no tool choice", func() error {
			_, err := adapters.DecodeAnswer(adapters.ForOllama(adapters.AnswerTool()), tripAnswer, turn)
			return err
		}(), "no tool choice"},
		{"hooks mcp", func() error {
			_, err := adapters.AnswerHooks(adapters.ForMCP(), tripAnswer, nil, adapters.StreamHooks{})
			return err
		}(), "MCP"},
		{"retry mcp", func() error {
			_, err := adapters.RetryAnswer(adapters.ForMCP(), tripAnswer, turn, adapters.ErrNoAnswer)
			return err
		}(), "MCP"},
	} {
		if c.err == nil || !strings.Contains(c.err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, c.err, c.want)
		}
	}
	// The text is the caller's: a copy.
	text, err := adapters.AnswerText(adapters.ForOpenAI(), tripAnswer, adapters.Turn{Text: `{"city":"a","days":1}`})
	if err != nil || string(text) != `{"city":"a","days":1}` {
		t.Errorf("AnswerText = %s, %v", text, err)
	}
	// The error quotes a bounded part of the model's words.
	long := strings.Repeat("no ", 2000)
	_, err = adapters.AnswerText(adapters.ForOpenAI(), tripAnswer, adapters.Turn{Refusal: long, Stop: "stop"})
	var ae *adapters.AnswerError
	if !errors.As(err, &ae) || ae.Words != long || len(err.Error()) > 1200 {
		t.Errorf("long refusal: %d bytes of message, Words kept %v", len(err.Error()), ae != nil && ae.Words == long)
	}
}

// TestRetryAnswer renders the re-ask of a bad answer for every provider,
// through its response format and as a forced tool call, and compares
// with testdata/golden/answers/retry/<provider>_<mode>.json: a user
// message quoting the problems, or the results of the turn's calls with
// the answer's call an error.
func TestRetryAnswer(t *testing.T) {
	_, bad := tripAnswer.Decode([]byte(`{"city":"","days":0,"stops":"Fushimi"}`))
	if bad == nil {
		t.Fatal("the bad answer decoded")
	}
	for _, prov := range []string{"openai", "openai-responses", "anthropic", "gemini", "bedrock", "ollama", "mistral"} {
		t.Run(prov, func(t *testing.T) {
			p := providerNamed(t, prov)
			entries, err := adapters.RetryAnswer(p, tripAnswer, adapters.Turn{Text: "{}"}, bad)
			if err != nil {
				t.Fatal(err)
			}
			golden.JSON(t, answersDir("retry", prov+"_format.json"), entries)
			if prov == "ollama" {
				return
			}
			pt := providerNamed(t, prov, adapters.AnswerTool())
			data, err := os.ReadFile(answersDir("replies", prov, "forced.json"))
			if err != nil {
				t.Fatal(err)
			}
			turn, err := pt.Parse(data)
			if err != nil {
				t.Fatal(err)
			}
			entries, err = adapters.RetryAnswer(pt, tripAnswer, turn, bad)
			if err != nil {
				t.Fatal(err)
			}
			golden.JSON(t, answersDir("retry", prov+"_tool.json"), entries)
		})
	}
	// A forced call with another call beside it: both get a result, the
	// answer's with its problems.
	p := adapters.ForOpenAI(adapters.AnswerTool())
	data, _ := os.ReadFile(answersDir("replies", "openai", "forced_with_other.json"))
	turn, err := p.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	_, derr := adapters.DecodeAnswer(p, tripAnswer, turn)
	entries, err := adapters.RetryAnswer(p, tripAnswer, turn, derr)
	if err != nil {
		t.Fatal(err)
	}
	golden.JSON(t, answersDir("retry", "openai_tool_with_other.json"), entries)

	// No answer: a user message asking for it, in each mode.
	for _, p := range []adapters.Provider{adapters.ForAnthropic(), adapters.ForAnthropic(adapters.AnswerTool())} {
		entries, err := adapters.RetryAnswer(p, tripAnswer, adapters.Turn{Text: "Kyoto."}, &adapters.AnswerError{Err: adapters.ErrNoAnswer})
		if err != nil || len(entries) != 1 {
			t.Errorf("no answer: %v, %v", entries, err)
		}
	}
	// What is not the model's mistake to correct.
	for _, e := range []error{adapters.ErrRefused, adapters.ErrIncomplete, adapters.ErrToolCalls, nil, errors.New("network down")} {
		if _, err := adapters.RetryAnswer(adapters.ForOpenAI(), tripAnswer, adapters.Turn{}, e); err == nil {
			t.Errorf("RetryAnswer(%v) = nil error", e)
		}
	}
	// A forced-tool re-ask needs the answer's call in the turn.
	if _, err := adapters.RetryAnswer(adapters.ForOpenAI(adapters.AnswerTool()), tripAnswer, adapters.Turn{}, bad); err == nil {
		t.Error("RetryAnswer without the answer's call: nil error")
	}
}

// BenchmarkResponseFormat: a response format is rendered once per answer,
// provider and options; every later request is a cache hit.
func BenchmarkResponseFormat(b *testing.B) {
	for _, v := range formatVariants() {
		b.Run(v.dir, func(b *testing.B) {
			if _, err := adapters.ResponseFormat(v.p, tripAnswer); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := adapters.ResponseFormat(v.p, tripAnswer); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("first/openai", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			a := define.MustDefineAnswer[Trip]() // a new answer: nothing cached on it
			if _, err := adapters.ResponseFormat(adapters.ForOpenAI(), a); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkDecodeAnswer: reading and decoding an answer from a parsed
// turn, against decoding its text alone.
func BenchmarkDecodeAnswer(b *testing.B) {
	p := adapters.ForOpenAI()
	data, err := os.ReadFile(answersDir("replies", "openai", "answer.json"))
	if err != nil {
		b.Fatal(err)
	}
	turn, err := p.Parse(data)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("DecodeAnswer", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := adapters.DecodeAnswer(p, tripAnswer, turn); err != nil {
				b.Fatal(err)
			}
		}
	})
	text := []byte(turn.Text)
	b.Run("Decode", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := tripAnswer.DecodeStrictNulls(text); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestAnswerConcurrent: one answer rendered and read from many goroutines
// at once (run with -race): the cache and the decoder are shared.
func TestAnswerConcurrent(t *testing.T) {
	a := define.MustDefineAnswer[Trip](define.WithName("trip_concurrent"))
	data, err := os.ReadFile(answersDir("replies", "openai", "answer.json"))
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error)
	for g := range 8 {
		go func() {
			p := formatVariants()[g%len(formatVariants())].p
			var err error
			for range 50 {
				if _, err = adapters.ResponseFormat(p, a); err != nil {
					break
				}
				var turn adapters.Turn
				if turn, err = adapters.ForOpenAI().Parse(data); err != nil {
					break
				}
				var v Trip
				if v, err = adapters.DecodeAnswer(adapters.ForOpenAI(), a, turn); err == nil && v.Budget != 9007199254740993 {
					err = errors.New("the budget changed")
				}
				if err != nil {
					break
				}
			}
			done <- err
		}()
	}
	for range 8 {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}

// TestRefusalShapes: what the parsers keep as Turn.Refusal, and what
// they leave alone (a refusal that is not a string stays in the replay).
func TestRefusalShapes(t *testing.T) {
	for _, c := range []struct {
		name, reply, want string
		p                 adapters.Provider
	}{
		{"chat string", `{"choices":[{"message":{"role":"assistant","content":null,"refusal":"no"},"finish_reason":"stop"}]}`, "no", adapters.ForOpenAI()},
		{"chat escaped", `{"choices":[{"message":{"role":"assistant","content":null,"refusal":"n\u00e9"},"finish_reason":"stop"}]}`, "né", adapters.ForOpenAI()},
		{"chat object", `{"choices":[{"message":{"role":"assistant","content":"x","refusal":{"why":1}},"finish_reason":"stop"}]}`, "", adapters.ForOpenAI()},
		{"chat placeholder", `{"choices":[{"message":{"role":"assistant","content":"x","refusal":""},"finish_reason":""}]}`, "", adapters.ForOpenAI(adapters.Server(adapters.Snowflake))},
		{"responses two parts", `{"status":"completed","output":[{"type":"message","role":"assistant","content":[{"type":"refusal","refusal":"no, "},{"type":"output_text","text":"x"}]},
			{"type":"message","role":"assistant","content":[{"type":"refusal","refusal":"never"}]}]}`, "no, never", adapters.ForOpenAIResponses()},
	} {
		turn, err := c.p.Parse([]byte(c.reply))
		if err != nil || turn.Refusal != c.want {
			t.Errorf("%s: Refusal = %q, %v; want %q", c.name, turn.Refusal, err, c.want)
		}
	}
	// A refusal part whose refusal is not a string is malformed.
	_, err := adapters.ForOpenAIResponses().Parse([]byte(`{"status":"completed","output":[{"type":"message","role":"assistant","content":[{"type":"refusal","refusal":3}]}]}`))
	if !errors.Is(err, adapters.ErrReplyShape) {
		t.Errorf("refusal 3: %v", err)
	}
}
