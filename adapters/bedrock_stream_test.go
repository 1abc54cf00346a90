package adapters_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/toolnexus/toolnexus/adapters"
)

// The Bedrock stream fixtures (testdata/golden/calls/bedrock/streams/*.bin)
// are binary AWS event streams, so they are written here, event by event,
// by a small encoder: TestBedrockStreamFixtureFiles checks that every file
// on disk is what its case below encodes to, and rewrites them all when
// TOOLNEXUS_UPDATE_GOLDEN=1 (then TestStreamFixtures, which reads them,
// refreshes their goldens). Edit a case here, never a .bin file.

// esHeader is one event-stream header: its name, value type and value
// bytes (for types 6 and 7, without the 2-byte length, which esFrame adds).
type esHeader struct {
	name string
	typ  byte
	val  []byte
}

func esString(name, v string) esHeader { return esHeader{name, 7, []byte(v)} }

// esFrame encodes one frame with correct lengths and CRCs.
func esFrame(headers []esHeader, payload string) []byte {
	var h []byte
	for _, x := range headers {
		h = append(h, byte(len(x.name)))
		h = append(h, x.name...)
		h = append(h, x.typ)
		if x.typ == 6 || x.typ == 7 {
			h = binary.BigEndian.AppendUint16(h, uint16(len(x.val)))
		}
		h = append(h, x.val...)
	}
	total := 16 + len(h) + len(payload)
	b := binary.BigEndian.AppendUint32(nil, uint32(total))
	b = binary.BigEndian.AppendUint32(b, uint32(len(h)))
	b = binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
	b = append(append(b, h...), payload...)
	return binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
}

// esEvent is an event frame with the headers Bedrock sends, in its order.
func esEvent(eventType, payload string) []byte {
	return esFrame([]esHeader{
		esString(":event-type", eventType),
		esString(":content-type", "application/json"),
		esString(":message-type", "event"),
	}, payload)
}

// esException is an exception frame.
func esException(excType, payload string) []byte {
	return esFrame([]esHeader{
		esString(":exception-type", excType),
		esString(":content-type", "application/json"),
		esString(":message-type", "exception"),
	}, payload)
}

// Shorthands for the ConverseStream events; pad adds the "p" member the
// service pads payloads with.
func bStart() []byte {
	return esEvent("messageStart", `{"p":"abcdefghijklmnopq","role":"assistant"}`)
}

func bText(i int, text string) []byte {
	return esEvent("contentBlockDelta", `{"contentBlockIndex":`+strconv.Itoa(i)+`,"delta":{"text":`+text+`},"p":"abcdef"}`)
}

func bUse(i int, id, name string) []byte {
	return esEvent("contentBlockStart", `{"contentBlockIndex":`+strconv.Itoa(i)+`,"p":"abcdefghijklmnopqrstuvwxyzABCDEFGH","start":{"toolUse":{"name":"`+name+`","toolUseId":"`+id+`"}}}`)
}

func bInput(i int, piece string) []byte {
	return esEvent("contentBlockDelta", `{"contentBlockIndex":`+strconv.Itoa(i)+`,"delta":{"toolUse":{"input":`+piece+`}},"p":"abcdefghij"}`)
}

func bStop(i int) []byte {
	return esEvent("contentBlockStop", `{"contentBlockIndex":`+strconv.Itoa(i)+`,"p":"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMN"}`)
}

func bMsgStop(reason string) []byte {
	return esEvent("messageStop", `{"p":"abcdefghi","stopReason":"`+reason+`"}`)
}

func bMeta() []byte {
	return esEvent("metadata", `{"metrics":{"latencyMs":924},"p":"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ01234","usage":{"inputTokens":353,"outputTokens":38,"totalTokens":391}}`)
}

func cat(frames ...[]byte) []byte { return bytes.Join(frames, nil) }

// bedrockStreamCases are the fixtures, by file name (without .bin).
var bedrockStreamCases = map[string]func() []byte{
	// Text with multi-byte UTF-8, then three calls: pieces cut inside
	// keys, inside a \u escape pair of the input text, and one with no
	// input at all; usage after messageStop.
	"tool_calls": func() []byte {
		return cat(bStart(),
			bText(0, `"Je vérifie la météo à 東京 "`), bText(0, `"et l'heure 🌤…"`), bStop(0),
			bUse(1, "tooluse_w1", "get_weather"),
			bInput(1, `""`), bInput(1, `"{\"ci"`), bInput(1, `"ty\": \"Zürich \\ud83c"`), bInput(1, `"\\udf24\", \"days\": [1, 2]"`), bInput(1, `"}"`),
			bStop(1),
			bUse(2, "tooluse_t2", "get_time"), bInput(2, `"{\"zone\":\"Europe/Zürich\"}"`), bStop(2),
			bUse(3, "tooluse_l3", "list_cities"), bStop(3),
			bMsgStop("tool_use"), bMeta())
	},
	// Every input piece "" (or none): the arguments are {}.
	"empty_input": func() []byte {
		return cat(bStart(), bUse(0, "tooluse_a", "ping"), bInput(0, `""`), bInput(0, `""`), bStop(0),
			bUse(1, "tooluse_b", "pong"), bInput(1, `"  "`), bStop(1), bMsgStop("tool_use"), bMeta())
	},
	// Numbers keep their text: 7006652.0 keeps ".0", a 20-digit integer
	// is not rounded.
	"number_text": func() []byte {
		return cat(bStart(), bUse(0, "tooluse_n", "final_result"),
			bInput(0, `"{\"result\":7006652.0,"`), bInput(0, `"\"big\":12345678901234567890,\"e\":1E+2}"`), bStop(0),
			bMsgStop("tool_use"))
	},
	// No contentBlockStop anywhere: each block ends at the next block's
	// start, the last at messageStop; the calls are still handed out.
	"no_block_stop": func() []byte {
		return cat(bStart(), bText(0, `"Two lookups."`),
			bUse(1, "tooluse_1", "get_weather"), bInput(1, `"{\"city\":\"Oslo\"}"`),
			bUse(2, "tooluse_2", "get_weather"), bInput(2, `"{\"city\":"`), bInput(2, `"\"Lima\"}"`),
			bMsgStop("tool_use"), bMeta())
	},
	// Nova's code interpreter: a server_tool_use block and its toolResult
	// make no call; the tool_use block after them does.
	"server_tool": func() []byte {
		return cat(bStart(),
			esEvent("contentBlockStart", `{"contentBlockIndex":0,"p":"abc","start":{"toolUse":{"name":"nova_code_interpreter","toolUseId":"tooluse_srv","type":"server_tool_use"}}}`),
			bInput(0, `"{\"snippet\":\"1234 * 5678\"}"`), bStop(0),
			esEvent("contentBlockStart", `{"contentBlockIndex":1,"p":"abcdefghijklmnopqrstuv","start":{"toolResult":{"status":"success","toolUseId":"tooluse_srv","type":"nova_code_interpreter_result"}}}`),
			esEvent("contentBlockDelta", `{"contentBlockIndex":1,"delta":{"toolResult":[{"json":{"stdOut":"7006652","stdErr":"","exitCode":0,"isError":false}}]},"p":"abc"}`),
			bStop(1),
			esEvent("contentBlockStart", `{"contentBlockIndex":2,"p":"ab","start":{"toolUse":{"name":"final_result","toolUseId":"tooluse_fin","type":"tool_use"}}}`),
			bInput(2, `"{\"result\":7006652.0}"`), bStop(2),
			bMsgStop("tool_use"), bMeta())
	},
	// Reasoning text and its signature, in pieces, then a redacted
	// reasoning block, then text: the replay holds both blocks whole.
	"reasoning": func() []byte {
		return cat(bStart(),
			esEvent("contentBlockDelta", `{"contentBlockIndex":0,"delta":{"reasoningContent":{"text":"The user wants "}},"p":"abcdefg"}`),
			esEvent("contentBlockDelta", `{"contentBlockIndex":0,"delta":{"reasoningContent":{"text":"the weather in Köln."}},"p":"ab"}`),
			esEvent("contentBlockDelta", `{"contentBlockIndex":0,"delta":{"reasoningContent":{"signature":"EqQBCkgIARABGAIiQL+"}},"p":"abcdef"}`),
			esEvent("contentBlockDelta", `{"contentBlockIndex":0,"delta":{"reasoningContent":{"signature":"9d3Zq/w=="}},"p":"a"}`),
			bStop(0),
			esEvent("contentBlockDelta", `{"contentBlockIndex":1,"delta":{"reasoningContent":{"redactedContent":"RXZlbnR1YWxseQ=="}},"p":"abc"}`),
			bStop(1),
			bText(2, `"Let me check."`), bStop(2),
			bUse(3, "tooluse_k", "get_weather"), bInput(3, `"{\"city\":\"Köln\"}"`), bStop(3),
			bMsgStop("tool_use"), bMeta())
	},
	// Citations: the text block becomes a citationsContent block; its
	// text is still the turn's text.
	"citations": func() []byte {
		return cat(bStart(), bText(0, `"The sky is blue."`),
			esEvent("contentBlockDelta", `{"contentBlockIndex":0,"delta":{"citation":{"title":"sky.txt","sourceContent":[{"text":"blue sky"}],"location":{"documentChar":{"documentIndex":0,"start":0,"end":8}}}},"p":"abc"}`),
			bStop(0), bMsgStop("end_turn"), bMeta())
	},
	// Headers of every value type around the ones read: each is skipped by
	// its size.
	"header_types": func() []byte {
		all := []esHeader{
			{"t", 0, nil}, {"f", 1, nil}, {"b", 2, []byte{7}}, {"s", 3, []byte{0, 9}},
			{"i", 4, []byte{0, 0, 0, 1}}, {"l", 5, []byte{0, 0, 0, 0, 0, 0, 0, 2}},
			{"x", 6, []byte{0xff, 0x00, 0x07}}, {"ts", 8, []byte{0, 0, 1, 0x8c, 0, 0, 0, 0}},
			{"u", 9, bytes.Repeat([]byte{0xab}, 16)},
		}
		ev := func(t, payload string) []byte {
			h := append(append([]esHeader{}, all[:4]...), esString(":event-type", t))
			h = append(append(h, all[4:]...), esString(":message-type", "event"), esString(":content-type", "application/json"))
			return esFrame(h, payload)
		}
		return cat(ev("messageStart", `{"role":"assistant"}`), ev("contentBlockDelta", `{"contentBlockIndex":0,"delta":{"text":"ok"}}`),
			ev("contentBlockStop", `{"contentBlockIndex":0}`), ev("messageStop", `{"stopReason":"end_turn"}`))
	},
	// An exception in the middle of a call: a provider error, not a turn.
	"exception_midstream": func() []byte {
		return cat(bStart(), bText(0, `"Looking it up."`), bStop(0), bUse(1, "tooluse_x", "get_weather"), bInput(1, `"{\"city\":"`),
			esException("modelStreamErrorException", `{"message":"Model stream error: the model produced invalid output","originalStatusCode":424}`))
	},
	// A throttling exception as the first frame.
	"throttling": func() []byte {
		return esException("throttlingException", `{"message":"Too many requests, please wait before trying again."}`)
	},
	// The other exceptions the service documents, after a call was
	// handed out: still an error.
	"validation_exception": func() []byte {
		return cat(bStart(), bUse(0, "tooluse_v", "ping"), bStop(0),
			esException("validationException", `{"Message":"The model returned an invalid tool use."}`))
	},
	"internal_server_exception": func() []byte {
		return cat(bStart(), esException("internalServerException", `{"message":"Internal server error"}`))
	},
	"service_unavailable": func() []byte {
		return cat(bStart(), bText(0, `"Hi"`), esException("serviceUnavailableException", `{"message":"Service unavailable"}`))
	},
	// A message of type error, its code and message in headers.
	"error_frame": func() []byte {
		return cat(bStart(), esFrame([]esHeader{esString(":message-type", "error"), esString(":error-code", "InternalFailure"), esString(":error-message", "An internal error occurred")}, ""))
	},
	// The stream stops after a whole call but before messageStop.
	"no_message_stop": func() []byte {
		return cat(bStart(), bUse(0, "tooluse_c", "get_weather"), bInput(0, `"{\"city\":\"Rome\"}"`), bStop(0))
	},
	// The stream stops inside a call's input.
	"cut_inside_input": func() []byte {
		return cat(bStart(), bUse(0, "tooluse_c", "get_weather"), bInput(0, `"{\"city\":\"Ro"`))
	},
	// The body stops inside a frame.
	"cut_frame": func() []byte {
		b := cat(bStart(), bUse(0, "tooluse_c", "get_weather"), bInput(0, `"{\"city\":\"Rome\"}"`))
		return b[:len(b)-20]
	},
	// The body stops inside a frame's prelude.
	"cut_prelude": func() []byte {
		b := cat(bStart(), bText(0, `"Hi"`))
		return b[:len(bStart())+7]
	},
	// A payload byte changed: the third frame's message CRC fails.
	"bad_message_crc": func() []byte {
		third := bInput(0, `"{\"city\":\"Rome\"}"`)
		third[len(third)-10] ^= 0x20
		return cat(bStart(), bUse(0, "tooluse_c", "get_weather"), third, bStop(0), bMsgStop("tool_use"))
	},
	// A length byte changed: the second frame's prelude CRC fails.
	"bad_prelude_crc": func() []byte {
		second := bText(0, `"Hi"`)
		second[3]++
		return cat(bStart(), second, bStop(0), bMsgStop("end_turn"))
	},
	// Not an event stream at all: a JSON error body.
	"not_eventstream": func() []byte {
		return []byte(`{"message":"The security token included in the request is invalid."}` + "\n")
	},
	// A frame that says it is 20 MiB: refused at its prelude, before its
	// bytes arrive.
	"frame_too_large": func() []byte {
		b := binary.BigEndian.AppendUint32(nil, 20<<20)
		b = binary.BigEndian.AppendUint32(b, 40)
		b = binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
		return cat(bStart(), b, []byte("more bytes follow"))
	},
	// A header of an unknown value type.
	"bad_header_type": func() []byte {
		return cat(bStart(), esFrame([]esHeader{{"odd", 10, nil}, esString(":event-type", "messageStop"), esString(":message-type", "event")}, `{"stopReason":"end_turn"}`))
	},
	// The input pieces join to text that is not JSON.
	"invalid_input": func() []byte {
		return cat(bStart(), bUse(0, "tooluse_i", "get_weather"), bInput(0, `"{\"city\": Rome}"`), bStop(0), bMsgStop("tool_use"))
	},
	// An input that stops inside its object, ended by contentBlockStop
	// and a stopReason that is not max_tokens: the model's malformed
	// call; the call after it is whole.
	"unclosed_input": func() []byte {
		return cat(bStart(), bUse(0, "tooluse_u", "get_weather"), bInput(0, `"{\"city\": \"Ro"`), bStop(0),
			bUse(1, "tooluse_v", "get_time"), bInput(1, `"{\"zone\":\"Europe/Rome\"}"`), bStop(1), bMsgStop("tool_use"))
	},
	// A good call, then one whose input is a Python dict (single quotes,
	// None): malformed, or repaired with RepairArguments.
	"single_quoted_input": func() []byte {
		return cat(bStart(), bUse(0, "tooluse_g", "get_time"), bInput(0, `"{\"zone\":\"Europe/Rome\"}"`), bStop(0),
			bUse(1, "tooluse_s", "get_weather"), bInput(1, `"{'city': 'Rome', "`), bInput(1, `"'days': None}"`), bStop(1), bMsgStop("tool_use"))
	},
	// The same input, then messageStop with max_tokens: cut off.
	"unclosed_input_max_tokens": func() []byte {
		return cat(bStart(), bUse(0, "tooluse_u", "get_weather"), bInput(0, `"{\"city\": \"Ro"`), bStop(0), bMsgStop("max_tokens"))
	},
	// The input is JSON, not an object.
	"input_not_object": func() []byte {
		return cat(bStart(), bUse(0, "tooluse_i", "get_weather"), bInput(0, `"[\"Rome\"]"`), bStop(0), bMsgStop("tool_use"))
	},
	// messageStop (max_tokens) ends a call whose input was cut off: an
	// error, never {}.
	"max_tokens_cuts_input": func() []byte {
		return cat(bStart(), bUse(0, "tooluse_m", "write_file"), bInput(0, `"{\"path\":\"a.txt\",\"text\":\"Once upon"`), bMsgStop("max_tokens"), bMeta())
	},
	// A delta for a block after its contentBlockStop.
	"delta_after_stop": func() []byte {
		return cat(bStart(), bUse(0, "tooluse_d", "get_weather"), bInput(0, `"{}"`), bStop(0), bInput(0, `"{}"`), bMsgStop("tool_use"))
	},
	// Two calls with one toolUseId.
	"duplicate_id": func() []byte {
		return cat(bStart(), bUse(0, "tooluse_d", "a"), bStop(0), bUse(1, "tooluse_d", "b"), bStop(1), bMsgStop("tool_use"))
	},
	// An event type ConverseStream does not have.
	"unknown_event": func() []byte {
		return cat(bStart(), esEvent("contentBlockPing", `{"contentBlockIndex":0}`), bMsgStop("end_turn"))
	},
	// A text delta in a toolUse block.
	"mixed_block": func() []byte {
		return cat(bStart(), bUse(0, "tooluse_q", "a"), bText(0, `"oops"`), bStop(0), bMsgStop("tool_use"))
	},
	// A payload that is not JSON.
	"payload_not_json": func() []byte {
		return cat(bStart(), esEvent("contentBlockDelta", `{"contentBlockIndex":0,"delta":{"text":"a}`), bMsgStop("end_turn"))
	},
}

func bedrockStreamDir() string {
	return filepath.Join("..", "testdata", "golden", "calls", "bedrock", "streams")
}

// TestBedrockStreamFixtureFiles checks that the .bin fixtures are what
// bedrockStreamCases encode, and that every .bin file has a case.
func TestBedrockStreamFixtureFiles(t *testing.T) {
	dir := bedrockStreamDir()
	update := os.Getenv("TOOLNEXUS_UPDATE_GOLDEN") == "1"
	if update {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, build := range bedrockStreamCases {
		path := filepath.Join(dir, name+".bin")
		want := build()
		if update {
			if err := os.WriteFile(path, want, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%s: %v (run with TOOLNEXUS_UPDATE_GOLDEN=1 to write it)", name, err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s.bin is not what its case encodes to: run with TOOLNEXUS_UPDATE_GOLDEN=1", name)
		}
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.bin"))
	for _, f := range files {
		if _, ok := bedrockStreamCases[strings.TrimSuffix(filepath.Base(f), ".bin")]; !ok {
			t.Errorf("%s has no case in bedrockStreamCases", f)
		}
	}
}

// TestBedrockStreamCallBeforeEnd feeds a stream frame by frame (each
// frame cut in two) and checks that each call reaches the Call hook as
// soon as its contentBlockStop is written, before messageStop is.
func TestBedrockStreamCallBeforeEnd(t *testing.T) {
	var got []adapters.Call
	s, err := adapters.NewStream(adapters.ForBedrock(), adapters.StreamHooks{Call: func(c adapters.Call) { got = append(got, c) }})
	if err != nil {
		t.Fatal(err)
	}
	write := func(frame []byte) {
		t.Helper()
		for _, piece := range [][]byte{frame[:len(frame)/2], frame[len(frame)/2:]} {
			if _, err := s.Write(piece); err != nil {
				t.Fatal(err)
			}
		}
	}
	write(bStart())
	write(bUse(0, "tooluse_1", "get_weather"))
	write(bInput(0, `"{\"city\":"`))
	write(bInput(0, `"\"Oslo\"}"`))
	if len(got) != 0 {
		t.Fatalf("a call was handed out before its block ended: %v", got)
	}
	write(bStop(0))
	if len(got) != 1 || got[0].ID != "tooluse_1" || string(got[0].Args) != `{"city":"Oslo"}` {
		t.Fatalf("after contentBlockStop the Call hook has %v, want the get_weather call", got)
	}
	// A block with no contentBlockStop ends at the next block's start.
	write(bUse(1, "tooluse_2", "get_time"))
	write(bInput(1, `"{}"`))
	write(bUse(2, "tooluse_3", "get_date"))
	if len(got) != 2 || got[1].Name != "get_time" {
		t.Fatalf("at the next block's start the Call hook has %v, want get_time second", got)
	}
	write(bMsgStop("tool_use"))
	if len(got) != 3 || got[2].Name != "get_date" {
		t.Fatalf("at messageStop the Call hook has %v, want get_date third", got)
	}
	turn, err := s.Close()
	if err != nil {
		t.Fatal(err)
	}
	if len(turn.Calls) != 3 || len(got) != 3 {
		t.Fatalf("turn has %d calls, hook %d; want 3 each", len(turn.Calls), len(got))
	}
}

// TestBedrockStreamReplay checks that the streamed turn's replay is the
// message ParseBedrockReply reads back to the same turn, reasoning
// signature included.
func TestBedrockStreamReplay(t *testing.T) {
	turn, err := adapters.ParseBedrockStream(bytes.NewReader(bedrockStreamCases["reasoning"]()))
	if err != nil {
		t.Fatal(err)
	}
	msg := turn.Replay[0].(interface{ MarshalJSON() ([]byte, error) })
	raw, _ := msg.MarshalJSON()
	if !bytes.Contains(raw, []byte(`"signature":"EqQBCkgIARABGAIiQL+9d3Zq/w=="`)) || !bytes.Contains(raw, []byte(`"redactedContent":"RXZlbnR1YWxseQ=="`)) {
		t.Fatalf("the replay lost a reasoning block: %s", raw)
	}
	again, err := adapters.ParseBedrockReply(raw)
	if err != nil {
		t.Fatal(err)
	}
	if again.Text != turn.Text || len(again.Calls) != 1 || string(again.Calls[0].Args) != string(turn.Calls[0].Args) {
		t.Fatalf("the replay reads back as %+v, the stream gave %+v", again, turn)
	}
}

// TestBedrockStreamLimits checks that the event limit bounds a frame's
// payload as declared in its prelude, before the payload arrives.
func TestBedrockStreamLimits(t *testing.T) {
	frame := bText(0, `"`+strings.Repeat("x", 200)+`"`)
	l := adapters.ReplyLimits{MaxEventBytes: 100}
	p := adapters.WithReplyLimits(adapters.ForBedrock(), l)
	s, err := adapters.NewStream(p, adapters.StreamHooks{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Write(bStart()); err != nil {
		t.Fatal(err)
	}
	_, err = s.Write(frame[:12]) // the prelude only
	if !errors.Is(err, adapters.ErrReplyLimit) || !strings.Contains(err.Error(), "frame 2: a payload of") {
		t.Fatalf("a 200-byte payload against a 100-byte limit, prelude only: got %v, want ErrReplyLimit naming frame 2", err)
	}
}

func FuzzBedrockStream(f *testing.F) { fuzzStream(f, adapters.ForBedrock()) }

// TestBedrockReplyCitedText checks that a whole Converse reply's
// citationsContent text is the turn's text, as a streamed one's is.
func TestBedrockReplyCitedText(t *testing.T) {
	turn, err := adapters.ParseBedrockReply([]byte(`{"output":{"message":{"role":"assistant","content":[{"text":"Per the file: "},` +
		`{"citationsContent":{"content":[{"text":"the sky "},{"text":"is blue."}],"citations":[{"title":"sky.txt"}]}}]}},"stopReason":"end_turn"}`))
	if err != nil {
		t.Fatal(err)
	}
	if turn.Text != "Per the file: the sky is blue." {
		t.Fatalf("text %q, want the text block and the cited text joined", turn.Text)
	}
	_, err = adapters.ParseBedrockReply([]byte(`{"output":{"message":{"role":"assistant","content":[{"citationsContent":{"content":[{"text":7}]}}]}},"stopReason":"end_turn"}`))
	if !errors.Is(err, adapters.ErrReplyShape) || !strings.Contains(err.Error(), "/output/message/content/0/citationsContent/content/0/text") {
		t.Fatalf("a number as cited text: got %v, want ErrReplyShape at its path", err)
	}
}
