package transport_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/toolnexus/toolnexus/transport"
)

// TestSigV4Vectors: AWS's published Signature Version 4 test suite
// (get-vanilla and get-vanilla-query-order-key-case): its credentials,
// date, region and service, and the signatures AWS lists.
func TestSigV4Vectors(t *testing.T) {
	s := transport.SigV4{AccessKeyID: "AKIDEXAMPLE", SecretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
		Region: "us-east-1", Service: "service", Now: func() time.Time { return time.Date(2015, 8, 30, 12, 36, 0, 0, time.UTC) }}
	for _, c := range []struct{ url, sig string }{
		{"https://example.amazonaws.com/", "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31"},
		{"https://example.amazonaws.com/?Param2=value2&Param1=value1", "b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500"},
	} {
		req, err := http.NewRequest(http.MethodGet, c.url, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Sign(req, nil); err != nil {
			t.Fatal(err)
		}
		want := "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=host;x-amz-date, Signature=" + c.sig
		if got := req.Header.Get("Authorization"); got != want {
			t.Errorf("%s:\n got %s\nwant %s", c.url, got, want)
		}
		if req.Header.Get("X-Amz-Date") != "20150830T123600Z" {
			t.Errorf("X-Amz-Date = %q", req.Header.Get("X-Amz-Date"))
		}
	}
	// A session token is sent and signed; missing credentials are an error.
	s.SessionToken = "tok"
	req, _ := http.NewRequest(http.MethodPost, "https://bedrock-runtime.us-east-1.amazonaws.com/model/a.b-v1%3A0/converse", nil)
	if err := s.Sign(req, []byte(`{}`)); err != nil {
		t.Fatal(err)
	}
	if req.Header.Get("X-Amz-Security-Token") != "tok" || !strings.Contains(req.Header.Get("Authorization"), "SignedHeaders=host;x-amz-date;x-amz-security-token,") {
		t.Errorf("with a session token: %v", req.Header)
	}
	if err := (transport.SigV4{Region: "r", Service: "bedrock"}).Sign(req, nil); err == nil {
		t.Error("no credentials: no error")
	}
}
