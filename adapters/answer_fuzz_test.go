package adapters_test

import (
	"errors"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
)

// FuzzDecodeAnswer feeds every reply fixture of the typed answers, changed,
// to its provider's parser and, when it parses, to DecodeAnswer, with and
// without AnswerTool: none may panic; the answer is either a Trip that
// AnswerText's text decodes to as well, or an *AnswerError with its
// sentinel, or the decode's *define.ArgErrors; RetryAnswer asks again for
// exactly the mistakes the model can correct (a decode error, no answer)
// and refuses the rest.
func FuzzDecodeAnswer(f *testing.F) {
	var provs []string
	for prov, cases := range answerReplyCases {
		provs = append(provs, prov)
		for _, c := range cases {
			if data, err := os.ReadFile(answersDir("replies", prov, c.file+".json")); err == nil {
				f.Add(uint8(len(provs)-1), c.byTool, data)
			}
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, byTool bool, reply []byte) {
		var opts []adapters.Option
		if byTool {
			opts = append(opts, adapters.AnswerTool())
		}
		prov := provs[int(which)%len(provs)]
		if byTool && prov == adapters.NameOllama {
			return // no tool choice: an error of every call, tested apart
		}
		p := providerNamed(t, prov, opts...)
		turn, err := p.Parse(reply)
		if err != nil {
			return
		}
		v, err := adapters.DecodeAnswer(p, tripAnswer, turn)
		var ae *adapters.AnswerError
		var args *define.ArgErrors
		switch {
		case err == nil:
			text, terr := adapters.AnswerText(p, tripAnswer, turn)
			if terr != nil {
				t.Fatalf("%s: DecodeAnswer succeeded, AnswerText: %v", prov, terr)
			}
			w, werr := tripAnswer.DecodeStrictNulls(text)
			if werr != nil || !cmp.Equal(v, w) {
				t.Fatalf("%s: DecodeAnswer = %+v, the text's decode %+v, %v", prov, v, w, werr)
			}
			return
		case errors.As(err, &ae):
			if !errors.Is(ae, ae.Err) || ae.Err == nil {
				t.Fatalf("%s: AnswerError without a sentinel: %v", prov, err)
			}
		case errors.As(err, &args):
		default:
			t.Fatalf("%s: DecodeAnswer error %T %v: neither an AnswerError nor ArgErrors", prov, err, err)
		}
		retry, rerr := adapters.RetryAnswer(p, tripAnswer, turn, err)
		correctable := args != nil || errors.Is(err, adapters.ErrNoAnswer)
		if correctable != (rerr == nil) || correctable != (len(retry) > 0) {
			t.Fatalf("%s: RetryAnswer(%v) = %d entries, %v", prov, err, len(retry), rerr)
		}
	})
}
