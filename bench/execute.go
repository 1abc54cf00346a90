package bench

import (
	"github.com/toolnexus/toolnexus/internal/benchdata"
)

// ExecutePeers returns every library's Peer on the realistic input
// (benchdata.Args or its twin in the peer's tags), with the Ok handler.
func ExecutePeers() ([]Peer, error) {
	tn, err := Toolnexus(Ok[benchdata.Args])
	if err != nil {
		return nil, err
	}
	eino, err := Eino(Ok[ArgsInvopop])
	if err != nil {
		return nil, err
	}
	sdk, err := GoSDK(Ok[ArgsGoogle], nil)
	if err != nil {
		return nil, err
	}
	full, err := GoSDKSchemaOf[benchdata.Args]()
	if err != nil {
		return nil, err
	}
	sdkFull, err := GoSDK(Ok[ArgsGoogle], full)
	if err != nil {
		return nil, err
	}
	return []Peer{
		tn,
		EncodingJSON(Ok[benchdata.Args]),
		eino,
		MCPGo(Ok[ArgsGoogle]),
		sdk,
		sdkFull,
		Genkit(Ok[ArgsInvopop]),
	}, nil
}
