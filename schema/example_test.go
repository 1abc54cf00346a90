package schema_test

import (
	"encoding/json"
	"fmt"

	"github.com/toolnexus/toolnexus/schema"
)

type WeatherArgs struct {
	City  string  `json:"city" description:"City name" minLength:"1"`
	Days  int     `json:"days,omitempty" minimum:"1" maximum:"14" default:"3"`
	Units *string `json:"units" enum:"metric,imperial"`
}

func ExampleFor() {
	s, err := schema.For[WeatherArgs]()
	if err != nil {
		fmt.Println(err)
		return
	}
	data, _ := json.MarshalIndent(s, "", "  ")
	fmt.Println(string(data))
	// Output:
	// {
	//   "type": "object",
	//   "properties": {
	//     "city": {
	//       "type": "string",
	//       "description": "City name",
	//       "minLength": 1
	//     },
	//     "days": {
	//       "type": "integer",
	//       "minimum": 1,
	//       "maximum": 14,
	//       "default": 3
	//     },
	//     "units": {
	//       "type": [
	//         "string",
	//         "null"
	//       ],
	//       "enum": [
	//         "metric",
	//         "imperial",
	//         null
	//       ]
	//     }
	//   },
	//   "required": [
	//     "city"
	//   ],
	//   "additionalProperties": false
	// }
}

type BadArgs struct {
	Filters struct {
		When chan int `json:"when"`
	} `json:"filters"`
}

func ExampleForType_error() {
	_, err := schema.For[BadArgs]()
	fmt.Println(err)
	// Output:
	// schema: ForType(schema_test.BadArgs): field Filters.When: unsupported type chan int (consider leaving it out of the arguments with json:"-")
}

func ExampleParse() {
	s, err := schema.Parse([]byte(`{"type":"object","properties":{"b":{"type":"string"},"a":{"type":"integer","x-unit":"km"}},"required":["b"]}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range s.Properties {
		fmt.Println(p.Name, p.Schema.Types)
	}
	data, _ := s.MarshalJSON()
	fmt.Println(string(data))
	// Output:
	// b [string]
	// a [integer]
	// {"type":"object","properties":{"b":{"type":"string"},"a":{"type":"integer","x-unit":"km"}},"required":["b"]}
}
