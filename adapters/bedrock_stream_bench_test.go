package adapters_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/toolnexus/toolnexus/adapters"
)

// Benchmarks of ParseBedrockStream. Each case runs the parser and, as a
// baseline in the same run, json.Valid over the JSON payloads of the
// same frames (the JSON the stream carries, without its binary framing);
// both report the body's size, so their ns/byte compare directly. Cases
// come at two sizes, 1x and 10x, to show the cost is linear.

// bedrockRecordedStream is a stream shaped like a recorded one: padded
// text deltas, then a call in a dozen input pieces; n of them make one
// longer reply.
func bedrockRecordedStream(n int) []byte {
	frames := [][]byte{bStart()}
	i := 0
	for range n {
		for _, w := range []string{"I can", " certainly help you with the", " weather in San Francisco,", " but let me", " check the current", " conditions first."} {
			frames = append(frames, bText(i, `"`+w+`"`))
		}
		frames = append(frames, bStop(i))
		i++
		frames = append(frames, bUse(i, "tooluse_wnjikhCUTruJciycmmm5Kg"+strconv.Itoa(i), "get_weather"))
		for _, p := range []string{``, `{\"locat`, `ion\": \"S`, `an `, `Fr`, `ancisco`, `, CA\"`, `, \"`, `uni`, `t\": \"fa`, `hrenheit`, `\"}`} {
			frames = append(frames, bInput(i, `"`+p+`"`))
		}
		frames = append(frames, bStop(i))
		i++
	}
	frames = append(frames, bMsgStop("tool_use"), bMeta())
	return bytes.Join(frames, nil)
}

// bedrockOneByteDeltas is one call whose input comes in n one-byte pieces.
func bedrockOneByteDeltas(n int) []byte {
	var b bytes.Buffer
	b.Write(bStart())
	b.Write(bUse(0, "tooluse_1", "write"))
	b.Write(bInput(0, `"{\"a\":\""`))
	piece := bInput(0, `"x"`)
	for range n {
		b.Write(piece)
	}
	b.Write(bInput(0, `"\"}"`))
	b.Write(bStop(0))
	b.Write(bMsgStop("tool_use"))
	return b.Bytes()
}

// bedrockManyCalls is n calls, each a start, one input piece and a stop.
func bedrockManyCalls(n int) []byte {
	var b bytes.Buffer
	b.Write(bStart())
	for i := range n {
		b.Write(esEvent("contentBlockStart", `{"contentBlockIndex":`+strconv.Itoa(i)+`,"start":{"toolUse":{"name":"get_weather","toolUseId":"tooluse_`+strconv.Itoa(i)+`"}}}`))
		b.Write(esEvent("contentBlockDelta", `{"contentBlockIndex":`+strconv.Itoa(i)+`,"delta":{"toolUse":{"input":"{\"city\":\"Paris\",\"days\":3}"}}}`))
		b.Write(esEvent("contentBlockStop", `{"contentBlockIndex":`+strconv.Itoa(i)+`}`))
	}
	b.Write(bMsgStop("tool_use"))
	return b.Bytes()
}

// bedrockHugeEvent is one call whose whole input, n bytes of a string,
// comes in one delta.
func bedrockHugeEvent(n int) []byte {
	return cat(bStart(), bUse(0, "tooluse_1", "write"),
		bInput(0, `"{\"text\":\"`+strings.Repeat("é", n/2)+`\"}"`), bStop(0), bMsgStop("tool_use"))
}

// esPayloads returns the payloads of the frames of body, concatenated as
// a JSON array, for the json.Valid baseline.
func esPayloads(body []byte) []byte {
	out := []byte{'['}
	for len(body) >= 16 {
		total := int(binary.BigEndian.Uint32(body))
		hl := int(binary.BigEndian.Uint32(body[4:]))
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = append(out, body[12+hl:total-4]...)
		body = body[total:]
	}
	return append(out, ']')
}

func BenchmarkBedrockStream(b *testing.B) {
	p := adapters.WithReplyLimits(adapters.ForBedrock(), adapters.ReplyLimits{MaxBytes: 1 << 30})
	cases := []struct {
		name string
		body func() []byte
	}{
		{"recorded/1x", func() []byte { return bedrockRecordedStream(1) }},
		{"recorded/10x", func() []byte { return bedrockRecordedStream(10) }},
		{"one-byte-deltas/100k", func() []byte { return bedrockOneByteDeltas(100_000) }},
		{"one-byte-deltas/1M", func() []byte { return bedrockOneByteDeltas(1_000_000) }},
		{"calls/1k", func() []byte { return bedrockManyCalls(1000) }},
		{"calls/10k", func() []byte { return bedrockManyCalls(10_000) }},
		{"huge-event/1MB", func() []byte { return bedrockHugeEvent(1 << 20) }},
		{"huge-event/10MB", func() []byte { return bedrockHugeEvent(10 << 20) }},
	}
	for _, c := range cases {
		body := c.body()
		if _, err := p.ParseStream(bytes.NewReader(body)); err != nil {
			b.Fatalf("%s: %v", c.name, err)
		}
		payloads := esPayloads(body)
		if !json.Valid(payloads) {
			b.Fatalf("%s: the payloads are not JSON", c.name)
		}
		b.Run(c.name+"/parse", func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := p.ParseStream(bytes.NewReader(body)); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(c.name+"/json.Valid", func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				if !json.Valid(payloads) {
					b.Fatal("not valid")
				}
			}
		})
	}
}
