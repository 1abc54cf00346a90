package transport

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"time"
)

// SigV4 signs requests with AWS Signature Version 4 (the standard
// library's HMAC-SHA256; no AWS SDK), in the Authorization header. It
// signs the host, x-amz-date, x-amz-security-token (with a session token)
// and the body's SHA-256; the canonical path encodes each segment of the
// request's escaped path once more, as AWS services other than S3 expect.
// Credentials are taken as given: read them from the environment or a
// credentials provider of your own.
type SigV4 struct {
	AccessKeyID, SecretAccessKey string
	SessionToken                 string // temporary credentials' token; "" for none
	Region                       string // us-east-1, ...
	Service                      string // "bedrock" for Bedrock's runtime
	// Now is the signing time; nil is time.Now.
	Now func() time.Time
}

// Sign signs req, whose body is body: a [Signer].
func (s SigV4) Sign(req *http.Request, body []byte) error {
	if s.AccessKeyID == "" || s.SecretAccessKey == "" || s.Region == "" || s.Service == "" {
		return errors.New("transport: SigV4: AccessKeyID, SecretAccessKey, Region and Service are required")
	}
	now := time.Now
	if s.Now != nil {
		now = s.Now
	}
	t := now().UTC()
	amzDate := t.Format("20060102T150405Z")
	req.Header.Set("X-Amz-Date", amzDate)
	if s.SessionToken != "" {
		req.Header.Set("X-Amz-Security-Token", s.SessionToken)
	}
	sum := sha256.Sum256(body)
	signed, sig := s.signature(req, amzDate, hex.EncodeToString(sum[:]))
	req.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential="+s.AccessKeyID+"/"+s.scope(amzDate)+
		", SignedHeaders="+signed+", Signature="+sig)
	return nil
}

// scope is the credential scope of a signing at amzDate.
func (s SigV4) scope(amzDate string) string {
	return amzDate[:8] + "/" + s.Region + "/" + s.Service + "/aws4_request"
}

// signature returns the signed header names and the signature of req.
func (s SigV4) signature(req *http.Request, amzDate, payloadHash string) (string, string) {
	host := req.Host
	if host == "" {
		host = req.URL.Host
	}
	headers := map[string]string{"host": host, "x-amz-date": amzDate}
	if tok := req.Header.Get("X-Amz-Security-Token"); tok != "" {
		headers["x-amz-security-token"] = tok
	}
	names := make([]string, 0, len(headers))
	for k := range headers {
		names = append(names, k)
	}
	sort.Strings(names)
	var canon strings.Builder
	canon.WriteString(req.Method + "\n" + canonicalPath(req.URL) + "\n" + canonicalQuery(req.URL) + "\n")
	for _, k := range names {
		canon.WriteString(k + ":" + strings.Join(strings.Fields(headers[k]), " ") + "\n")
	}
	signed := strings.Join(names, ";")
	canon.WriteString("\n" + signed + "\n" + payloadHash)
	creq := sha256.Sum256([]byte(canon.String()))
	toSign := "AWS4-HMAC-SHA256\n" + amzDate + "\n" + s.scope(amzDate) + "\n" + hex.EncodeToString(creq[:])
	key := hmacSHA256([]byte("AWS4"+s.SecretAccessKey), amzDate[:8])
	for _, part := range []string{s.Region, s.Service, "aws4_request"} {
		key = hmacSHA256(key, part)
	}
	return signed, hex.EncodeToString(hmacSHA256(key, toSign))
}

func hmacSHA256(key []byte, data string) []byte {
	h := hmac.New(sha256.New, key)
	h.Write([]byte(data))
	return h.Sum(nil)
}

// canonicalPath is u's escaped path with each segment encoded again.
func canonicalPath(u *url.URL) string {
	p := u.EscapedPath()
	if p == "" {
		return "/"
	}
	segs := strings.Split(p, "/")
	for i, seg := range segs {
		segs[i] = awsEscape(seg)
	}
	return strings.Join(segs, "/")
}

// canonicalQuery is u's query, its names and values encoded and sorted.
func canonicalQuery(u *url.URL) string {
	q := u.Query()
	pairs := make([]string, 0, len(q))
	for k, vs := range q {
		for _, v := range vs {
			pairs = append(pairs, awsEscape(k)+"="+awsEscape(v))
		}
	}
	sort.Strings(pairs)
	return strings.Join(pairs, "&")
}

// awsEscape percent-encodes every byte but the unreserved ones
// (A-Z a-z 0-9 - _ . ~), in upper-case hex.
func awsEscape(s string) string {
	const hexd = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '_' || c == '.' || c == '~' {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hexd[c>>4])
		b.WriteByte(hexd[c&15])
	}
	return b.String()
}
