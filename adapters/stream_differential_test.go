package adapters_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/toolnexus/toolnexus/adapters"
)

// The differential fuzz targets: each builds, from fuzzed parts (a text,
// tool calls with ids, names and arguments texts, a stop reason), a whole
// reply of one provider and the stream that provider would send for the
// same content, cut into fuzzed pieces, and parses both. The verdicts must
// agree: the same calls, text and stop reason, or errors of the same class
// (the same sentinel). A failing input is kept in testdata/fuzz.

// fuzzReply is the content both replies carry.
type fuzzReply struct {
	text  string
	calls []fuzzCall
	stop  string
	// esc: strings are written with \u escapes beyond ASCII; the
	// stream's own choices (send the optional events, the calls whole)
	// are its other bits.
	esc   bool
	bits  byte
	sizes []int // the pieces' sizes, in turn
	next  int
}

type fuzzCall struct{ id, name, args string }

// decodeFuzzReply reads the content from the fuzzer's bytes: a flags
// byte, a stop reason, then parts (a kind byte, then length-prefixed
// strings) to the end.
func decodeFuzzReply(data []byte) fuzzReply {
	r := fuzzReply{sizes: []int{1}}
	take := func() byte {
		if len(data) == 0 {
			return 0
		}
		b := data[0]
		data = data[1:]
		return b
	}
	str := func() string {
		n := int(take()) % 48
		n = min(n, len(data))
		s := string(data[:n])
		data = data[n:]
		return s
	}
	flags := take()
	r.esc, r.bits = flags&1 != 0, flags>>1
	r.stop = str()
	if sizes := str(); sizes != "" {
		r.sizes = r.sizes[:0]
		for _, c := range []byte(sizes) {
			r.sizes = append(r.sizes, int(c)%9+1)
		}
	}
	for len(data) > 0 && len(r.calls) < 6 {
		switch take() % 3 {
		case 0:
			r.text += str()
		default:
			r.calls = append(r.calls, fuzzCall{id: str(), name: str(), args: str()})
		}
	}
	return r
}

// pieces cuts s into pieces of the fuzzed sizes, at character boundaries
// (a stream's pieces are JSON strings, whole characters), at least one.
func (r *fuzzReply) pieces(s string) []string {
	var out []string
	for len(s) > 0 {
		n := min(r.sizes[r.next%len(r.sizes)], len(s))
		r.next++
		for n < len(s) && !utf8.RuneStart(s[n]) {
			n++
		}
		out = append(out, s[:n])
		s = s[n:]
	}
	if len(out) == 0 {
		out = append(out, "")
	}
	return out
}

// jstr writes s as a JSON string: quotes, backslashes and control
// characters escaped, the rest as is (so that invalid UTF-8 stays
// invalid), or with \u escapes beyond ASCII when esc.
func jstr(s string, esc bool) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\r':
			b.WriteString(`\r`)
		case c == '\t':
			b.WriteString(`\t`)
		case c < 0x20:
			fmt.Fprintf(&b, `\u%04x`, c)
		case c >= 0x80 && esc:
			r, n := utf8.DecodeRuneInString(s[i:])
			switch {
			case r == utf8.RuneError && n == 1:
				b.WriteByte(c)
			case r > 0xFFFF:
				r -= 0x10000
				fmt.Fprintf(&b, `\u%04x\u%04x`, 0xD800+(r>>10), 0xDC00+(r&0x3FF))
			default:
				fmt.Fprintf(&b, `\u%04x`, r)
			}
			i += n
			continue
		default:
			b.WriteByte(c)
		}
		i++
	}
	b.WriteByte('"')
	return b.String()
}

// objectArgs is a call's arguments as a JSON value, for the providers that
// send them as an object: the text itself, compact, when it is JSON, {}
// when it is blank, else the text as a JSON string (not an object: an
// error in both).
func objectArgs(text string, esc bool) string {
	switch {
	case strings.Trim(text, " \t\r\n") == "":
		return "{}"
	case json.Valid([]byte(text)):
		// Compact: a server writes one event a line.
		var b bytes.Buffer
		_ = json.Compact(&b, []byte(text))
		return b.String()
	}
	return jstr(text, esc)
}

// verdict is what a parse gave, as the comparison sees it.
type verdict struct {
	Calls []adapters.Call
	Text  string
	Stop  string
	Err   string // the sentinel
}

// verdictOf is a parse's verdict, and its error's text. The calls'
// arguments are compared as JSON values in their order (canonical): a
// string's spelling is kept as sent, and Vertex AI's partialArgs spell
// strings their own way.
func verdictOf(t adapters.Turn, err error) (verdict, string) {
	if err != nil {
		return verdict{Err: sentinelOf(err)}, err.Error()
	}
	for i := range t.Calls {
		t.Calls[i].Args = canonical(t.Calls[i].Args)
	}
	return verdict{Calls: t.Calls, Text: t.Text, Stop: t.Stop}, ""
}

// canonical rewrites the JSON text raw with each string and number as
// encoding/json writes it, members in their order.
func canonical(raw []byte) []byte {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var b bytes.Buffer
	var value func() bool
	value = func() bool {
		tok, err := d.Token()
		if err != nil {
			return false
		}
		delim, ok := tok.(json.Delim)
		if !ok {
			v, _ := json.Marshal(tok)
			b.Write(v)
			return true
		}
		b.WriteRune(rune(delim))
		for i := 0; d.More(); i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			if delim == '{' {
				k, err := d.Token()
				if err != nil {
					return false
				}
				v, _ := json.Marshal(k)
				b.Write(append(v, ':'))
			}
			if !value() {
				return false
			}
		}
		end, err := d.Token()
		if err != nil {
			return false
		}
		b.WriteRune(rune(end.(json.Delim)))
		return true
	}
	if !value() {
		return raw
	}
	return b.Bytes()
}

// checkSame parses whole and stream with p and fails t when the verdicts
// differ: when both refuse a content with more than one kind of defect
// (defects), only the refusal is compared, not its class, since which
// defect a parser meets first depends on the order it reads in.
func checkSame(t *testing.T, p adapters.Provider, whole, stream []byte, defects int) {
	t.Helper()
	w, wmsg := verdictOf(p.Parse(whole))
	s, smsg := verdictOf(p.ParseStream(bytes.NewReader(stream)))
	if w.Err != "" && s.Err != "" && defects > 1 {
		return
	}
	if w.Err == "ErrArguments" && s.Err == "" && objectInputs[p.Name()] && malformedCall(s.Calls) {
		// A whole reply carries the input as a JSON value, where one that
		// is no object is the server's (ErrArguments); a stream carries it
		// as text, where one that is no object is the model's: a malformed
		// call (docs/mistakes.md).
		return
	}
	if d := cmp.Diff(w, s); d != "" {
		t.Fatalf("%s: whole and streamed verdicts differ (-whole +stream):\n%s\nwhole: %s\nwhole error: %s\nstream error: %s\nstream:\n%q",
			p.Name(), d, whole, wmsg, smsg, stream)
	}
}

// objectInputs are the homes whose whole replies carry a call's input as
// a JSON value and whose streams carry it as text.
var objectInputs = map[string]bool{"anthropic": true, "bedrock": true}

// malformedCall reports whether one of calls is malformed.
func malformedCall(calls []adapters.Call) bool {
	for _, c := range calls {
		if c.Malformed != "" {
			return true
		}
	}
	return false
}

// fuzzSeeds are inputs every target starts from: text only, a call with
// arguments, two calls, arguments of JSON space (issue 32 item 11), a
// call without arguments, escapes, and arguments that are not JSON.
var fuzzSeeds = [][]byte{
	[]byte("\x00\x04stop\x02\x01\x02\x00\x05Hello"),
	[]byte("\x00\x0atool_calls\x01\x05\x01\x05c_1\x04\x08get_time\x10{\"zone\": \"UTC\"}"),
	[]byte("\x01\x0atool_calls\x03\x01\x02\x03\x00\x03Hi \x01\x01a\x01f\x07{\"x\":1}\x01\x01b\x01g\x0f{\"s\":\"\u00e9\U0001F600\"}"),
	[]byte("\x00\x0atool_calls\x00\x01\x02c1\x01f\x01\r"),
	[]byte("\x00\x0atool_calls\x00\x01\x02c1\x01f\x00"),
	[]byte("\x00\x0atool_calls\x00\x01\x02c1\x01f\x04null"),
	[]byte("\x00\x0atool_calls\x00\x01\x02c1\x01f\x06{\"a\":"),
	[]byte("\x00\x0atool_calls\x00\x01\x02c1\x01f\x03[1]"),
	[]byte("\x00\x0atool_calls\x00\x01\x02c1\x01f\x07{\"a\":1}x"),
	[]byte("\x00\x0atool_calls\x00\x01\x02c1\x00\x02{}"),
	[]byte("\x00\x0atool_calls\x00\x01\x02c1\x01f\x02{}\x01\x02c1\x01g\x02{}"),
}

// defects counts the kinds of defect the content has: text that is not
// UTF-8, a call without a name, without an id (where idRequired), with
// an id an earlier call has, or with arguments that are not one JSON
// object (nor blank, nor null).
func (r *fuzzReply) defects(idRequired bool) int {
	kinds := map[string]bool{}
	texts := []string{r.text, r.stop}
	ids := map[string]bool{}
	for _, c := range r.calls {
		texts = append(texts, c.id, c.name, c.args)
		kinds["id"] = kinds["id"] || c.id == "" && idRequired
		kinds["same id"] = kinds["same id"] || c.id != "" && ids[c.id]
		ids[c.id] = true
		kinds["name"] = kinds["name"] || c.name == ""
		kinds["arguments"] = kinds["arguments"] || !argsObject(c.args)
	}
	for _, t := range texts {
		kinds["UTF-8"] = kinds["UTF-8"] || !utf8.ValidString(t)
	}
	n := 0
	for _, k := range kinds {
		if k {
			n++
		}
	}
	return n
}

// argsObject reports whether text is arguments a reply may hold: JSON
// space, null, or one JSON object without a key twice in an object.
func argsObject(text string) bool {
	text = strings.Trim(text, " \t\r\n")
	if text == "" || text == "null" {
		return true
	}
	if !json.Valid([]byte(text)) || text[0] != '{' {
		return false
	}
	d := json.NewDecoder(strings.NewReader(text))
	var walk func() bool
	walk = func() bool {
		tok, err := d.Token()
		if err != nil {
			return false
		}
		delim, ok := tok.(json.Delim)
		if !ok {
			return true
		}
		seen := map[string]bool{}
		for d.More() {
			if delim == '{' {
				k, err := d.Token()
				if err != nil || seen[k.(string)] {
					return false
				}
				seen[k.(string)] = true
			}
			if !walk() {
				return false
			}
		}
		_, err = d.Token()
		return err == nil
	}
	return walk()
}

func fuzzDifferential(f *testing.F, build func(r *fuzzReply) (whole, stream []byte), p adapters.Provider, idRequired bool) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r := decodeFuzzReply(data)
		defects := r.defects(idRequired)
		whole, stream := build(&r)
		checkSame(t, p, whole, stream, defects)
	})
}

// chatReplies are OpenAI Chat Completions' whole reply and stream (the
// OpenAI home and Mistral's, which shares the shape).
func chatReplies(r *fuzzReply) (whole, stream []byte) {
	var w strings.Builder
	w.WriteString(`{"choices":[{"index":0,"message":{"role":"assistant","content":`)
	if r.text != "" {
		w.WriteString(jstr(r.text, r.esc))
	} else {
		w.WriteString("null")
	}
	if len(r.calls) > 0 {
		w.WriteString(`,"tool_calls":[`)
		for i, c := range r.calls {
			if i > 0 {
				w.WriteByte(',')
			}
			fmt.Fprintf(&w, `{"id":%s,"type":"function","function":{"name":%s,"arguments":%s}}`, jstr(c.id, r.esc), jstr(c.name, r.esc), jstr(c.args, r.esc))
		}
		w.WriteString("]")
	}
	fmt.Fprintf(&w, `},"finish_reason":%s}]}`, jstr(r.stop, r.esc))

	var s strings.Builder
	s.WriteString(sse("", `{"choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}`))
	if r.text != "" {
		for _, piece := range r.pieces(r.text) {
			s.WriteString(sse("", `{"choices":[{"index":0,"delta":{"content":`+jstr(piece, r.esc)+`},"finish_reason":null}]}`))
		}
	}
	for i, c := range r.calls {
		fmt.Fprintf(&s, "data: %s\n\n", `{"choices":[{"index":0,"delta":{"tool_calls":[{"index":`+strconv.Itoa(i)+`,"id":`+jstr(c.id, r.esc)+`,"type":"function","function":{"name":`+jstr(c.name, r.esc)+`,"arguments":""}}]}}]}`)
		for _, piece := range r.pieces(c.args) {
			s.WriteString(sse("", `{"choices":[{"index":0,"delta":{"tool_calls":[{"index":`+strconv.Itoa(i)+`,"function":{"arguments":`+jstr(piece, r.esc)+`}}]}}]}`))
		}
	}
	s.WriteString(sse("", `{"choices":[{"index":0,"delta":{},"finish_reason":`+jstr(r.stop, r.esc)+`}]}`))
	s.WriteString("data: [DONE]\n\n")
	return []byte(w.String()), []byte(s.String())
}

func FuzzStreamVsWholeOpenAI(f *testing.F) {
	fuzzDifferential(f, chatReplies, adapters.ForOpenAI(), false)
}

func FuzzStreamVsWholeMistral(f *testing.F) {
	fuzzDifferential(f, chatReplies, adapters.ForMistral(), true)
}

func FuzzStreamVsWholeResponses(f *testing.F) {
	fuzzDifferential(f, func(r *fuzzReply) ([]byte, []byte) {
		var items []string
		if r.text != "" {
			items = append(items, `{"type":"message","id":"msg_1","status":"completed","role":"assistant","content":[{"type":"output_text","text":`+jstr(r.text, r.esc)+`,"annotations":[]}]}`)
		}
		for i, c := range r.calls {
			items = append(items, fmt.Sprintf(`{"type":"function_call","id":"fc_%d","status":"completed","call_id":%s,"name":%s,"arguments":%s}`, i, jstr(c.id, r.esc), jstr(c.name, r.esc), jstr(c.args, r.esc)))
		}
		whole := `{"object":"response","status":"completed","output":[` + strings.Join(items, ",") + `]}`

		var s strings.Builder
		ev := func(typ, rest string) {
			s.WriteString(sse(typ, `{"type":"`+typ+`"`+rest+`}`))
		}
		ev("response.created", `,"response":{"status":"in_progress","output":[]}`)
		k := 0
		if r.text != "" {
			ev("response.output_item.added", `,"output_index":0,"item":{"type":"message","id":"msg_1","status":"in_progress","role":"assistant","content":[]}`)
			ev("response.content_part.added", `,"output_index":0,"item_id":"msg_1","content_index":0,"part":{"type":"output_text","text":"","annotations":[]}`)
			for _, piece := range r.pieces(r.text) {
				ev("response.output_text.delta", `,"output_index":0,"item_id":"msg_1","content_index":0,"delta":`+jstr(piece, r.esc))
			}
			if r.bits&1 != 0 {
				ev("response.output_text.done", `,"output_index":0,"item_id":"msg_1","content_index":0,"text":`+jstr(r.text, r.esc))
				ev("response.output_item.done", `,"output_index":0,"item":`+items[0])
			}
			k++
		}
		for i, c := range r.calls {
			n := strconv.Itoa(k)
			ev("response.output_item.added", `,"output_index":`+n+`,"item":{"type":"function_call","id":"fc_`+strconv.Itoa(i)+`","status":"in_progress","call_id":`+jstr(c.id, r.esc)+`,"name":`+jstr(c.name, r.esc)+`,"arguments":""}`)
			for _, piece := range r.pieces(c.args) {
				ev("response.function_call_arguments.delta", `,"output_index":`+n+`,"item_id":"fc_`+strconv.Itoa(i)+`","delta":`+jstr(piece, r.esc))
			}
			if r.bits&2 != 0 {
				ev("response.function_call_arguments.done", `,"output_index":`+n+`,"item_id":"fc_`+strconv.Itoa(i)+`","arguments":`+jstr(c.args, r.esc))
			}
			if r.bits&4 != 0 {
				ev("response.output_item.done", `,"output_index":`+n+`,"item":`+items[k])
			}
			k++
		}
		ev("response.completed", `,"response":{"object":"response","status":"completed"}`)
		return []byte(whole), []byte(s.String())
	}, adapters.ForOpenAIResponses(), true)
}

func FuzzStreamVsWholeAnthropic(f *testing.F) {
	fuzzDifferential(f, func(r *fuzzReply) ([]byte, []byte) {
		var blocks []string
		if r.text != "" {
			blocks = append(blocks, `{"type":"text","text":`+jstr(r.text, r.esc)+`}`)
		}
		for _, c := range r.calls {
			blocks = append(blocks, `{"type":"tool_use","id":`+jstr(c.id, r.esc)+`,"name":`+jstr(c.name, r.esc)+`,"input":`+objectArgs(c.args, r.esc)+`}`)
		}
		whole := `{"id":"msg_1","type":"message","role":"assistant","content":[` + strings.Join(blocks, ",") + `],"stop_reason":` + jstr(r.stop, r.esc) + `}`

		var s strings.Builder
		ev := func(typ, rest string) {
			s.WriteString(sse(typ, `{"type":"`+typ+`"`+rest+`}`))
		}
		ev("message_start", `,"message":{"id":"msg_1","type":"message","role":"assistant","content":[],"stop_reason":null,"usage":{"input_tokens":1,"output_tokens":1}}`)
		i := 0
		if r.text != "" {
			ev("content_block_start", `,"index":0,"content_block":{"type":"text","text":""}`)
			for _, piece := range r.pieces(r.text) {
				ev("content_block_delta", `,"index":0,"delta":{"type":"text_delta","text":`+jstr(piece, r.esc)+`}`)
			}
			ev("content_block_stop", `,"index":0`)
			i++
		}
		for _, c := range r.calls {
			n := strconv.Itoa(i)
			ev("content_block_start", `,"index":`+n+`,"content_block":{"type":"tool_use","id":`+jstr(c.id, r.esc)+`,"name":`+jstr(c.name, r.esc)+`,"input":{}}`)
			args := objectArgs(c.args, r.esc)
			if args == "{}" && r.bits&1 != 0 {
				args = c.args // blank: sent as is, or not at all
			}
			for _, piece := range r.pieces(args) {
				ev("content_block_delta", `,"index":`+n+`,"delta":{"type":"input_json_delta","partial_json":`+jstr(piece, r.esc)+`}`)
			}
			ev("content_block_stop", `,"index":`+n)
			i++
		}
		ev("message_delta", `,"delta":{"stop_reason":`+jstr(r.stop, r.esc)+`,"stop_sequence":null},"usage":{"output_tokens":2}`)
		ev("message_stop", ``)
		return []byte(whole), []byte(s.String())
	}, adapters.ForAnthropic(), true)
}

func FuzzStreamVsWholeGemini(f *testing.F) {
	fuzzDifferential(f, func(r *fuzzReply) ([]byte, []byte) {
		var parts []string
		if r.text != "" {
			parts = append(parts, `{"text":`+jstr(r.text, r.esc)+`}`)
		}
		call := func(c fuzzCall) string {
			fc := `"name":` + jstr(c.name, r.esc) + `,"args":` + objectArgs(c.args, r.esc)
			if c.id != "" {
				fc = `"id":` + jstr(c.id, r.esc) + `,` + fc
			}
			return `{"functionCall":{` + fc + `}}`
		}
		for _, c := range r.calls {
			parts = append(parts, call(c))
		}
		// The last chunk's empty text, as Gemini sends it, is a part of
		// the whole reply too; and a stream ends at a finishReason, which
		// "" is not: a whole reply's "" has no stream.
		parts = append(parts, `{"text":""}`)
		if r.stop == "" {
			r.stop = "STOP"
		}
		stop := jstr(r.stop, r.esc)
		whole := `{"candidates":[{"content":{"role":"model","parts":[` + strings.Join(parts, ",") + `]},"finishReason":` + stop + `}]}`

		var s strings.Builder
		chunk := func(part string) {
			s.WriteString(sse("", `{"candidates":[{"content":{"role":"model","parts":[`+part+`]}}]}`))
		}
		if r.text != "" {
			for _, piece := range r.pieces(r.text) {
				chunk(`{"text":` + jstr(piece, r.esc) + `}`)
			}
		}
		for _, c := range r.calls {
			pieces, ok := partialArgs(r, objectArgs(c.args, r.esc))
			if !ok || r.bits&1 == 0 {
				chunk(call(c))
				continue
			}
			head := `"name":` + jstr(c.name, r.esc)
			if c.id != "" {
				head = `"id":` + jstr(c.id, r.esc) + `,` + head
			}
			chunk(`{"functionCall":{` + head + `,"willContinue":true}}`)
			for _, p := range pieces {
				chunk(`{"functionCall":{"partialArgs":[` + p + `],"willContinue":true}}`)
			}
			chunk(`{"functionCall":{}}`)
		}
		s.WriteString(sse("", `{"candidates":[{"content":{"role":"model","parts":[{"text":""}]},"finishReason":`+stop+`}]}`))
		return []byte(whole), []byte(s.String())
	}, adapters.ForGemini(), false)
}

// partialArgs is the arguments object args as Vertex AI's partialArgs:
// one piece per value (a string in pieces), in order; ok is false for
// arguments partialArgs cannot send (not UTF-8, not an object, an empty
// object or array inside, a key twice).
func partialArgs(r *fuzzReply, args string) (pieces []string, ok bool) {
	if !utf8.ValidString(args) {
		return nil, false // the decoder would read U+FFFD
	}
	d := json.NewDecoder(strings.NewReader(args))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, false
	}
	obj, isObj := v.(map[string]any)
	if !isObj || len(obj) == 0 {
		return nil, false
	}
	// Keys in the order sent: decode the object again as tokens.
	ok = true
	var walk func(path string, d *json.Decoder) bool
	walk = func(path string, d *json.Decoder) bool {
		tok, err := d.Token()
		if err != nil {
			return false
		}
		switch x := tok.(type) {
		case json.Delim:
			n := 0
			seen := map[string]bool{}
			for d.More() {
				var p string
				if x == '{' {
					k, err := d.Token()
					if err != nil || seen[k.(string)] {
						return false // a key twice: the reply's check refuses it, partialArgs cannot send it
					}
					seen[k.(string)] = true
					kb, _ := json.Marshal(k.(string))
					p = path + "[" + string(kb) + "]"
				} else {
					p = path + "[" + strconv.Itoa(n) + "]"
				}
				n++
				if !walk(p, d) {
					return false
				}
			}
			if _, err := d.Token(); err != nil || n == 0 {
				return false // an empty object or array: partialArgs have no value for it
			}
			return true
		case string:
			quoted, _ := json.Marshal(path)
			ps := r.pieces(x)
			for i, piece := range ps {
				more := ""
				if i < len(ps)-1 {
					more = `,"willContinue":true`
				}
				pieces = append(pieces, `{"jsonPath":`+string(quoted)+`,"stringValue":`+jstr(piece, r.esc)+more+`}`)
			}
			return true
		case json.Number:
			quoted, _ := json.Marshal(path)
			pieces = append(pieces, `{"jsonPath":`+string(quoted)+`,"numberValue":`+x.String()+`}`)
		case bool:
			quoted, _ := json.Marshal(path)
			pieces = append(pieces, `{"jsonPath":`+string(quoted)+`,"boolValue":`+strconv.FormatBool(x)+`}`)
		case nil:
			quoted, _ := json.Marshal(path)
			pieces = append(pieces, `{"jsonPath":`+string(quoted)+`,"nullValue":null}`)
		}
		return true
	}
	d = json.NewDecoder(strings.NewReader(args))
	d.UseNumber()
	if !walk("$", d) {
		return nil, false
	}
	return pieces, ok
}

func FuzzStreamVsWholeBedrock(f *testing.F) {
	fuzzDifferential(f, func(r *fuzzReply) ([]byte, []byte) {
		var blocks []string
		if r.text != "" {
			blocks = append(blocks, `{"text":`+jstr(r.text, r.esc)+`}`)
		}
		for _, c := range r.calls {
			blocks = append(blocks, `{"toolUse":{"toolUseId":`+jstr(c.id, r.esc)+`,"name":`+jstr(c.name, r.esc)+`,"input":`+objectArgs(c.args, r.esc)+`}}`)
		}
		stop := jstr(r.stop, r.esc)
		whole := `{"output":{"message":{"role":"assistant","content":[` + strings.Join(blocks, ",") + `]}},"stopReason":` + stop + `,"usage":{"inputTokens":1,"outputTokens":1,"totalTokens":2}}`

		var s bytes.Buffer
		s.Write(esEvent("messageStart", `{"role":"assistant"}`))
		i := 0
		if r.text != "" {
			for _, piece := range r.pieces(r.text) {
				s.Write(esEvent("contentBlockDelta", `{"contentBlockIndex":0,"delta":{"text":`+jstr(piece, r.esc)+`}}`))
			}
			s.Write(esEvent("contentBlockStop", `{"contentBlockIndex":0}`))
			i++
		}
		for _, c := range r.calls {
			n := strconv.Itoa(i)
			s.Write(esEvent("contentBlockStart", `{"contentBlockIndex":`+n+`,"start":{"toolUse":{"toolUseId":`+jstr(c.id, r.esc)+`,"name":`+jstr(c.name, r.esc)+`}}}`))
			args := objectArgs(c.args, r.esc)
			if args == "{}" && r.bits&1 != 0 {
				args = c.args
			}
			for _, piece := range r.pieces(args) {
				s.Write(esEvent("contentBlockDelta", `{"contentBlockIndex":`+n+`,"delta":{"toolUse":{"input":`+jstr(piece, r.esc)+`}}}`))
			}
			s.Write(esEvent("contentBlockStop", `{"contentBlockIndex":`+n+`}`))
			i++
		}
		s.Write(esEvent("messageStop", `{"stopReason":`+stop+`}`))
		s.Write(esEvent("metadata", `{"usage":{"inputTokens":1,"outputTokens":1,"totalTokens":2},"metrics":{"latencyMs":1}}`))
		return []byte(whole), s.Bytes()
	}, adapters.ForBedrock(), true)
}

func FuzzStreamVsWholeOllama(f *testing.F) {
	fuzzDifferential(f, func(r *fuzzReply) ([]byte, []byte) {
		var calls []string
		for _, c := range r.calls {
			tc := `"function":{"name":` + jstr(c.name, r.esc) + `,"arguments":` + objectArgs(c.args, r.esc) + `}`
			if c.id != "" {
				tc = `"id":` + jstr(c.id, r.esc) + `,` + tc
			}
			calls = append(calls, `{`+tc+`}`)
		}
		stop := jstr(r.stop, r.esc)
		msg := `"role":"assistant","content":` + jstr(r.text, r.esc)
		if len(calls) > 0 {
			msg += `,"tool_calls":[` + strings.Join(calls, ",") + `]`
		}
		whole := `{"model":"m","created_at":"2026-01-01T00:00:00Z","message":{` + msg + `},"done":true,"done_reason":` + stop + `}`

		var s strings.Builder
		for _, piece := range r.pieces(r.text) {
			s.WriteString(`{"model":"m","message":{"role":"assistant","content":` + jstr(piece, r.esc) + `},"done":false}` + "\n")
		}
		lists := calls // a chunk a call
		if r.bits&1 != 0 && len(calls) > 0 {
			lists = []string{strings.Join(calls, ",")} // all in one chunk
		}
		for _, list := range lists {
			s.WriteString(`{"model":"m","message":{"role":"assistant","content":"","tool_calls":[` + list + `]},"done":false}` + "\n")
		}
		s.WriteString(`{"model":"m","message":{"role":"assistant","content":""},"done":true,"done_reason":` + stop + `,"eval_count":3}` + "\n")
		return []byte(whole), []byte(s.String())
	}, adapters.ForOllama(), false)
}
