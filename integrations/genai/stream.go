package tngenai

import (
	"fmt"
	"iter"
	"reflect"

	"google.golang.org/genai"
)

// Collect reads a streamed response to its end (the iterator of
// Models.GenerateContentStream or Chat.SendStream) and returns its chunks
// joined by [Merge]: one response that [Run] and [RunParts] accept. It
// returns the stream's first error, and nothing of a stream that failed.
func Collect(stream iter.Seq2[*genai.GenerateContentResponse, error]) (*genai.GenerateContentResponse, error) {
	var chunks []*genai.GenerateContentResponse
	for chunk, err := range stream {
		if err != nil {
			return nil, err
		}
		chunks = append(chunks, chunk)
	}
	return Merge(chunks...)
}

// Merge joins the chunks of one streamed response, in order, into the
// response the model would have sent unstreamed; the chunks are not
// modified. Each candidate (by its Index) gets the parts of every chunk in
// order: the text of consecutive text parts is joined into one part (a
// thought's text apart from the answer's), a thought signature stays on
// the part it came with (a signature sent on an empty text part goes to
// the text part before it, which it closes), and every other part, a
// function call among them, is kept whole with its signature. A
// candidate's finish reason, safety ratings and other metadata are the
// last sent; its citations are appended. The response's usage metadata is
// the last sent (Gemini sends it, cumulative, in the last chunk, often one
// without candidates), its prompt feedback, ids and model version the
// first.
//
// A function call sent in pieces (partialArgs and willContinue, which
// Vertex AI streams with streamFunctionCallArguments) is refused
// ([ErrReply]) rather than joined: its arguments would be incomplete.
// Merge of no chunks is an error too.
func Merge(chunks ...*genai.GenerateContentResponse) (*genai.GenerateContentResponse, error) {
	out := &genai.GenerateContentResponse{}
	seen := false
	for i, ch := range chunks {
		if ch == nil {
			continue
		}
		seen = true
		if out.SDKHTTPResponse == nil {
			out.SDKHTTPResponse = ch.SDKHTTPResponse
		}
		if out.CreateTime.IsZero() {
			out.CreateTime = ch.CreateTime
		}
		if out.ModelVersion == "" {
			out.ModelVersion = ch.ModelVersion
		}
		if out.ResponseID == "" {
			out.ResponseID = ch.ResponseID
		}
		if out.PromptFeedback == nil {
			out.PromptFeedback = ch.PromptFeedback
		}
		if ch.UsageMetadata != nil {
			out.UsageMetadata = ch.UsageMetadata
		}
		if ch.ModelStatus != nil {
			out.ModelStatus = ch.ModelStatus
		}
		for j, c := range ch.Candidates {
			if c == nil {
				continue
			}
			if err := mergeCandidate(candidate(out, c.Index), c, fmt.Sprintf("chunks[%d].candidates[%d]", i, j)); err != nil {
				return nil, err
			}
		}
	}
	if !seen {
		return nil, fmt.Errorf("%w: a stream without chunks", ErrReply)
	}
	return out, nil
}

// candidate returns out's candidate of the given index, adding it.
func candidate(out *genai.GenerateContentResponse, index int32) *genai.Candidate {
	for _, c := range out.Candidates {
		if c.Index == index {
			return c
		}
	}
	c := &genai.Candidate{Index: index}
	out.Candidates = append(out.Candidates, c)
	return c
}

// mergeCandidate adds chunk c's candidate to dst.
func mergeCandidate(dst, c *genai.Candidate, at string) error {
	if c.Content != nil {
		if dst.Content == nil {
			dst.Content = &genai.Content{}
		}
		if dst.Content.Role == "" {
			dst.Content.Role = c.Content.Role
		}
		for k, p := range c.Content.Parts {
			if p == nil {
				continue
			}
			if fc := p.FunctionCall; fc != nil && (len(fc.PartialArgs) > 0 || fc.WillContinue != nil && *fc.WillContinue) {
				return fmt.Errorf("%w: %s.content.parts[%d].functionCall (%s): arguments streamed in pieces (partialArgs, willContinue) are not joined; stream without streamFunctionCallArguments",
					ErrReply, at, k, fc.Name)
			}
			dst.Content.Parts = appendPart(dst.Content.Parts, p)
		}
	}
	if c.FinishReason != "" && c.FinishReason != genai.FinishReasonUnspecified {
		dst.FinishReason = c.FinishReason
	}
	if c.FinishMessage != "" {
		dst.FinishMessage = c.FinishMessage
	}
	if c.TokenCount != 0 {
		dst.TokenCount = c.TokenCount
	}
	if c.AvgLogprobs != 0 {
		dst.AvgLogprobs = c.AvgLogprobs
	}
	if c.SafetyRatings != nil {
		dst.SafetyRatings = c.SafetyRatings
	}
	if c.GroundingMetadata != nil {
		dst.GroundingMetadata = c.GroundingMetadata
	}
	if c.URLContextMetadata != nil {
		dst.URLContextMetadata = c.URLContextMetadata
	}
	if c.LogprobsResult != nil {
		dst.LogprobsResult = c.LogprobsResult
	}
	if c.ContinuationToken != nil {
		dst.ContinuationToken = c.ContinuationToken
	}
	if cm := c.CitationMetadata; cm != nil {
		if dst.CitationMetadata == nil {
			dst.CitationMetadata = &genai.CitationMetadata{}
		}
		dst.CitationMetadata.Citations = append(dst.CitationMetadata.Citations, cm.Citations...)
	}
	return nil
}

// appendPart appends a copy of p to parts, joining a text part to the
// open text part before it.
func appendPart(parts []*genai.Part, p *genai.Part) []*genai.Part {
	if n := len(parts); n > 0 && textOnly(p) {
		last := parts[n-1]
		if textOnly(last) && last.Thought == p.Thought && len(last.ThoughtSignature) == 0 {
			last.Text += p.Text // last is Merge's own copy
			last.ThoughtSignature = p.ThoughtSignature
			return parts
		}
	}
	cp := *p
	return append(parts, &cp)
}

// textOnly reports whether p holds nothing but text, a thought flag and a
// thought signature (any other field, present or future, makes it a part
// of another kind, never joined).
func textOnly(p *genai.Part) bool {
	q := *p
	q.Text, q.Thought, q.ThoughtSignature = "", false, nil
	return reflect.ValueOf(q).IsZero()
}
