package adapters_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/golden"
	"github.com/toolnexus/toolnexus/internal/jsonwire"
)

// chatWith is an OpenAI chat completion with one call of f whose
// arguments text is args.
func chatWith(args string) []byte {
	q, _ := json.Marshal(args)
	return []byte(`{"choices":[{"message":{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":` + string(q) + `}}]},"finish_reason":"tool_calls"}]}`)
}

var repairing = adapters.ForOpenAI(adapters.RepairArguments())

// TestRepairArguments: each repair, alone and with others, on texts of
// the kinds models send; and the texts no repair may read.
func TestRepairArguments(t *testing.T) {
	for _, tc := range []struct {
		name, text, want string // want "" for a text that stays malformed
		repairs          adapters.Repairs
	}{
		{"double-encoded", `"{\"city\": \"Bengaluru\"}"`, `{"city":"Bengaluru"}`, adapters.RepairDoubleEncoded},
		{"double-encoded, pretty", "\"{\\n  \\\"city\\\": \\\"Bengaluru\\\"\\n}\"", `{"city":"Bengaluru"}`, adapters.RepairDoubleEncoded},
		{"code fence", "```json\n{\"city\":\"paris\"}\n```", `{"city":"paris"}`, adapters.RepairCodeFence},
		{"code fence, no info string", "```\n{\"city\":\"paris\"}\n```", `{"city":"paris"}`, adapters.RepairCodeFence},
		{"prose after", `{"query": "TO-DO", "limit": 10}\n\nI'll now search for the items.`, `{"query":"TO-DO","limit":10}`, adapters.RepairTextAround},
		{"stray quotes after", `{}""`, `{}`, adapters.RepairTextAround},
		{"junk after", `{"add": ["web_search"]} <junk>`, `{"add":["web_search"]}`, adapters.RepairTextAround},
		{"prose before", `Sure! {"city": "Oslo"}`, `{"city":"Oslo"}`, adapters.RepairTextAround},
		{"a brace too many", `{"city": "Oslo"}}`, `{"city":"Oslo"}`, adapters.RepairTextAround},
		{"trailing comma", `{"seconds":300,}`, `{"seconds":300}`, adapters.RepairTrailingComma},
		{"trailing commas in arrays", `{"a":[1,2,],"b":{"c":1,},}`, `{"a":[1,2],"b":{"c":1}}`, adapters.RepairTrailingComma},
		{"single quotes", `{'city': 'Warsaw', 'unit': 'celsius'}`, `{"city":"Warsaw","unit":"celsius"}`, adapters.RepairSingleQuotes},
		{"single quotes holding a double quote", `{'q': 'say "hi"', 'x': 'it\'s'}`, `{"q":"say \"hi\"","x":"it's"}`, adapters.RepairSingleQuotes},
		{"mixed quotes", `{"paths": ['app.py', "b.py"]}`, `{"paths":["app.py","b.py"]}`, adapters.RepairSingleQuotes},
		{"Python literals", `{"a": True, "b": False, "c": None}`, `{"a":true,"b":false,"c":null}`, adapters.RepairPythonLiterals},
		{"escaped space", `{"command": "view", "view_range": \n[2142, 2250]\n\n}`, `{"command":"view","view_range":[2142,2250]}`, adapters.RepairEscapedSpace},
		{"fenced Python dict", "```python\n{'city': 'Lima', 'metric': True,}\n```", `{"city":"Lima","metric":true}`,
			adapters.RepairCodeFence | adapters.RepairSingleQuotes | adapters.RepairPythonLiterals | adapters.RepairTrailingComma},
		{"double-encoded fence", `"` + "```json\\n{\\\"a\\\":1}\\n```" + `"`, `{"a":1}`, adapters.RepairDoubleEncoded | adapters.RepairCodeFence},

		// Never repaired: what no repair spells out as one object.
		{"two objects", `{"a":1}{"a":2}`, "", 0},
		{"two objects apart", `{"name":"weather"} {"name":"cityAttractions"}`, "", 0},
		{"plain text", "maybe", "", 0},
		{"arithmetic", `{"seconds":60*60*12}`, "", 0},
		{"missing quote before a key", `{"a":"b",c":"d"}`, "", 0},
		{"cut off", `{"end_char: \nLet me use a broader search`, "", 0},
		{"an array of one object", `[{"a":1}]`, "", 0},
		{"a number", `12`, "", 0},
		{"a call in Python", `[get_weather(location='Warsaw', unit='celsius')]`, "", 0},
		{"an object cut off before", `x": {"b":1}}`, "", 0},
		{"members after", `{"a":1}, "b": 2}`, "", 0},
		{"an apostrophe in single quotes", `{'q': 'it's'}`, "", 0},
		{"a word that is no literal", `{"a": Yes}`, "", 0},
		{"a key twice", `{'a': 1, 'a': 2}`, "", 0},
		{"special tokens", "<｜DSML｜tool_calls>\n<｜DSML｜invoke name=\"search_codebase\">", "", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			turn, err := repairing.Parse(chatWith(tc.text))
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			c := turn.Calls[0]
			if tc.want == "" {
				if c.Malformed == "" || c.Repaired != 0 || string(c.Args) != tc.text {
					t.Fatalf("call %+v: want it malformed, its Args the text as sent", c)
				}
				return
			}
			if c.Malformed != "" || string(c.Args) != tc.want || c.Repaired != tc.repairs {
				t.Fatalf("call Args %s, repairs %q, malformed %q; want %s, %q", c.Args, c.Repaired, c.Malformed, tc.want, tc.repairs)
			}
			// The replay still holds the text as the model sent it.
			if got := turn.Replay[0].(adapters.OpenAIAssistantMessage).ToolCalls[0].Function.Arguments; got != tc.text {
				t.Errorf("replayed %q, want the text as sent", got)
			}
			// Without the option the call is malformed.
			plain, err := adapters.ParseOpenAIReply(chatWith(tc.text))
			if err != nil || plain.Calls[0].Malformed == "" {
				t.Errorf("without RepairArguments: %+v, %v; want a malformed call", plain.Calls, err)
			}
		})
	}
}

// TestRepairArgumentsOption: the option is taken where arguments come as
// text, changes no rendering, and is refused elsewhere.
func TestRepairArgumentsOption(t *testing.T) {
	tools := choiceTools(t)
	for _, p := range adapters.Providers() {
		takes := map[string]bool{"openai": true, "openai-responses": true, "mistral": true, "anthropic": true, "bedrock": true}[p.Name()]
		with := p.Name()
		t.Run(with, func(t *testing.T) {
			var q adapters.Provider
			switch with {
			case "openai":
				q = adapters.ForOpenAI(adapters.RepairArguments())
			case "openai-responses":
				q = adapters.ForOpenAIResponses(adapters.RepairArguments())
			case "mistral":
				q = adapters.ForMistral(adapters.RepairArguments())
			case "anthropic":
				q = adapters.ForAnthropic(adapters.RepairArguments())
			case "bedrock":
				q = adapters.ForBedrock(adapters.RepairArguments())
			case "gemini":
				q = adapters.ForGemini(adapters.RepairArguments())
			case "mcp":
				q = adapters.ForMCP(adapters.RepairArguments())
			case "ollama":
				q = adapters.ForOllama(adapters.RepairArguments())
			default:
				t.Fatalf("no case for %s", with)
			}
			got, err := q.Tools(tools)
			if !takes {
				if !errors.Is(err, adapters.ErrOption) {
					t.Fatalf("Tools with RepairArguments: %v, want ErrOption", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			want, err := p.Tools(tools)
			if err != nil {
				t.Fatal(err)
			}
			a, _ := adapters.AppendJSON(nil, got)
			b, _ := adapters.AppendJSON(nil, want)
			if !bytes.Equal(a, b) {
				t.Errorf("RepairArguments changed the rendering:\n%s\n%s", a, b)
			}
		})
	}
}

// TestRepairedFixtures parses every provider's fixtures of malformed
// arguments with RepairArguments, against goldens in
// testdata/golden/calls/<provider>/repaired: which calls the repairs read,
// and with which repairs.
func TestRepairedFixtures(t *testing.T) {
	dir := filepath.Join("..", "testdata", "golden", "calls")
	providers := map[string]adapters.Provider{
		"openai":           adapters.ForOpenAI(adapters.RepairArguments()),
		"openai-responses": adapters.ForOpenAIResponses(adapters.RepairArguments()),
		"mistral":          adapters.ForMistral(adapters.RepairArguments()),
		"anthropic":        adapters.ForAnthropic(adapters.RepairArguments()),
		"bedrock":          adapters.ForBedrock(adapters.RepairArguments()),
	}
	for _, tc := range malformedCases() {
		name := strings.Fields(tc.name)[0]
		p := providers[name]
		t.Run(tc.name, func(t *testing.T) {
			body, err := os.ReadFile(tc.file)
			if err != nil {
				t.Fatal(err)
			}
			var turn adapters.Turn
			if tc.stream {
				turn, err = p.ParseStream(bytes.NewReader(body))
			} else {
				turn, err = p.Parse(body)
			}
			if err != nil {
				t.Fatal(err)
			}
			plain, err := tc.parse(body)
			if err != nil {
				t.Fatal(err)
			}
			for i, c := range turn.Calls {
				switch {
				case c.Repaired != 0:
					if plain.Calls[i].Malformed == "" {
						t.Errorf("call %d repaired, but it is well-formed without the option", i)
					}
					if !wholeObjectText(c.Args) {
						t.Errorf("call %d: repaired Args %s are not one compact object", i, c.Args)
					}
				case c.Malformed == "":
					if d := cmp.Diff(plain.Calls[i], c); d != "" {
						t.Errorf("call %d changed (-without +with):\n%s", i, d)
					}
				}
			}
			base := strings.TrimSuffix(filepath.Base(tc.file), filepath.Ext(tc.file))
			if tc.stream {
				base = "stream_" + base
			}
			golden.JSON(t, filepath.Join(dir, name, "repaired", base+".json"), turn.Calls)
		})
	}
}

// wholeObjectText reports whether b is one compact JSON object the strict
// reader accepts.
func wholeObjectText(b []byte) bool {
	return strictObject(b) && bytes.Equal(jsonwire.Compact(b), b)
}

// strictObject reports whether b is one JSON object (space around it
// allowed) the strict reader accepts.
func strictObject(b []byte) bool {
	b = bytes.TrimSpace(b)
	return len(b) > 0 && b[0] == '{' && jsonwire.Check(b, jsonwire.MaxDepth) == nil
}

// FuzzRepairArguments holds the repairs to what they promise, through a
// parse with RepairArguments:
//   - a text the strict reader takes for arguments (one JSON object, or
//     "", null) is read exactly as without the option, never repaired;
//   - a repaired call's Args are one compact JSON object the strict
//     reader accepts, and a call is repaired only where it is malformed
//     without the option;
//   - an object damaged by each repair's mistake (fenced, double-encoded,
//     text around, trailing commas, single quotes, Python literals) reads
//     back as the object.
func FuzzRepairArguments(f *testing.F) {
	for _, s := range []string{`{"a":1}`, `{"city":"Oslo","days":[1,2],"x":{"y":null,"z":true}}`, `{}`, `""`, `null`, `{'a':1,}`,
		"```json\n{\"a\":1}\n```", `"{\"a\":1}"`, `{"a":True}`, `{"a":1} x`, `x {"a":1}`, `{"a":"it's"}`, `{"a":"\u00e9\"\\"}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if !utf8.ValidString(text) {
			return // the reply's JSON string cannot carry it as it is
		}
		reply := chatWith(text)
		plain, err := adapters.ParseOpenAIReply(reply)
		if err != nil {
			return // a limit, or text the reply cannot carry
		}
		turn, err := repairing.Parse(reply)
		if err != nil {
			t.Fatalf("with repairs: %v; without: a turn", err)
		}
		c, p := turn.Calls[0], plain.Calls[0]
		if p.Malformed == "" {
			if d := cmp.Diff(p, c); d != "" {
				t.Fatalf("a well-formed text read otherwise with repairs (-without +with):\n%s", d)
			}
			damaged(t, p.Args)
			return
		}
		switch {
		case c.Repaired != 0:
			if c.Malformed != "" || !wholeObjectText(c.Args) {
				t.Fatalf("repaired %q to %s (%q), not one compact object", text, c.Args, c.Malformed)
			}
		case c.Malformed == "" || string(c.Args) != text:
			t.Fatalf("not repaired, but %+v", c)
		}
	})
}

// damaged checks that obj (compact) with each repair's mistake in it reads
// back as obj.
func damaged(t *testing.T, obj []byte) {
	t.Helper()
	if string(obj) == "{}" {
		return
	}
	quoted, _ := json.Marshal(string(obj))
	for name, text := range map[string]string{
		"fenced":         "```json\n" + string(obj) + "\n```",
		"double-encoded": string(quoted),
		"prose after":    string(obj) + "\n\nI will now look it up.",
		"prose before":   "Here you go! " + string(obj),
		"trailing comma": string(obj[:len(obj)-1]) + ",}",
		"Python":         pythonic(obj),
	} {
		turn, err := repairing.Parse(chatWith(text))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if c := turn.Calls[0]; c.Malformed != "" || !jsonEqual(c.Args, obj) {
			t.Fatalf("%s %q read as %s (%s), want %s", name, text, c.Args, c.Malformed, obj)
		}
	}
}

// pythonic writes the compact object obj as Python's repr would: strings
// without a single quote in single quotes, true, false and null as True,
// False and None.
func pythonic(obj []byte) string {
	var b strings.Builder
	for i := 0; i < len(obj); {
		switch c := obj[i]; {
		case c == '"':
			j := i + 1
			for obj[j] != '"' {
				if obj[j] == '\\' {
					j++
				}
				j++
			}
			s := obj[i : j+1]
			if bytes.ContainsAny(s[1:len(s)-1], `'"\`) {
				b.Write(s)
			} else {
				b.WriteByte('\'')
				b.Write(s[1 : len(s)-1])
				b.WriteByte('\'')
			}
			i = j + 1
		case bytes.HasPrefix(obj[i:], []byte("true")):
			b.WriteString("True")
			i += 4
		case bytes.HasPrefix(obj[i:], []byte("false")):
			b.WriteString("False")
			i += 5
		case bytes.HasPrefix(obj[i:], []byte("null")):
			b.WriteString("None")
			i += 4
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String()
}

// jsonEqual reports whether a and b hold the same JSON value.
func jsonEqual(a, b []byte) bool {
	var x, y any
	da, db := json.NewDecoder(bytes.NewReader(a)), json.NewDecoder(bytes.NewReader(b))
	da.UseNumber()
	db.UseNumber()
	return da.Decode(&x) == nil && db.Decode(&y) == nil && cmp.Equal(x, y)
}
