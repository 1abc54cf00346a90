package reflectx

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// color is an encoding.TextUnmarshaler with a pointer receiver: "#rrggbb".
type color struct{ R, G, B uint8 }

func (c *color) UnmarshalText(b []byte) error {
	if len(b) != 7 || b[0] != '#' {
		return errors.New("want #rrggbb")
	}
	v, err := strconv.ParseUint(string(b[1:]), 16, 32)
	if err != nil {
		return errors.New("want #rrggbb")
	}
	c.R, c.G, c.B = uint8(v>>16), uint8(v>>8), uint8(v)
	return nil
}

func (c color) MarshalText() ([]byte, error) {
	return fmt.Appendf(nil, "#%02x%02x%02x", c.R, c.G, c.B), nil
}

// celsius is a json.Unmarshaler: a number, or a string like "21.5C".
type celsius float64

var errNotCelsius = errors.New("not a temperature")

func (c *celsius) UnmarshalJSON(b []byte) error {
	s := string(b)
	if s == "null" {
		return nil
	}
	if strings.HasPrefix(s, `"`) {
		uq, err := strconv.Unquote(s)
		if err != nil || !strings.HasSuffix(uq, "C") {
			return errNotCelsius
		}
		s = strings.TrimSuffix(uq, "C")
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return errNotCelsius
	}
	*c = celsius(f)
	return nil
}

func (c celsius) MarshalJSON() ([]byte, error) {
	return strconv.AppendFloat(nil, float64(c), 'g', -1, 64), nil
}

// cabin declares its values through swaggest's Enum interface; schema/
// advertises them, so the decoder enforces them, in fields and elements.
type cabin string

func (cabin) Enum() []any { return []any{"economy", "first"} }

// cabinOverride's enum tag replaces cabin's Enum() list, as in schema/.
type cabinOverride struct {
	C cabin `json:"c" enum:"premium,first"`
}

// item is an element of zoo.Items.
type item struct {
	N   int    `json:"n" minimum:"0"`
	Tag string `json:"tag,omitempty"`
}

// zoo has a field of every supported kind, all optional, so that one row
// of the decode table can test one thing.
type zoo struct {
	S     string            `json:"s,omitempty" minLength:"2" maxLength:"5"`
	I     int               `json:"i,omitempty"`
	I8    int8              `json:"i8,omitempty"`
	I64   int64             `json:"i64,omitempty"`
	U     uint              `json:"u,omitempty"`
	U8    uint8             `json:"u8,omitempty"`
	U64   uint64            `json:"u64,omitempty"`
	F     float64           `json:"f,omitempty"`
	F32   float32           `json:"f32,omitempty"`
	B     bool              `json:"b,omitempty"`
	Max   int               `json:"max,omitempty" maximum:"10"`
	ExMin float64           `json:"exmin,omitempty" exclusiveMinimum:"0"`
	Mult  int               `json:"mult,omitempty" multipleOf:"5"`
	MultF float64           `json:"multf,omitempty" multipleOf:"0.1"`
	Enum  string            `json:"enum,omitempty" enum:"C,F"`
	EnumI int               `json:"enumi,omitempty" enum:"[1,2,3]"`
	Const string            `json:"const,omitempty" const:"v1"`
	Pat   string            `json:"pat,omitempty" pattern:"^[A-Z]{3}$"`
	DT    string            `json:"dt,omitempty" format:"date-time"`
	Date  string            `json:"date,omitempty" format:"date"`
	Time  string            `json:"time,omitempty" format:"time"`
	Email string            `json:"email,omitempty" format:"email"`
	UUID  string            `json:"uuid,omitempty" format:"uuid"`
	IPv4  string            `json:"ipv4,omitempty" format:"ipv4"`
	IPv6  string            `json:"ipv6,omitempty" format:"ipv6"`
	URI   string            `json:"uri,omitempty" format:"uri"`
	Host  string            `json:"host,omitempty" format:"hostname"`
	T     time.Time         `json:"t,omitzero"`
	Bytes []byte            `json:"bytes,omitempty"`
	Color color             `json:"color,omitzero"`
	PCol  *color            `json:"pcol,omitempty"`
	Temp  celsius           `json:"temp,omitempty"`
	Ptr   *int              `json:"ptr"`
	Sl    []int             `json:"sl,omitempty" maxItems:"3" uniqueItems:"true"`
	Strs  []string          `json:"strs,omitempty" minItems:"1"`
	Arr   [2]int            `json:"arr,omitzero"`
	M     map[string]int    `json:"m,omitempty" maxProperties:"2"`
	MI    map[int]string    `json:"mi,omitempty"`
	MA    map[string]any    `json:"ma,omitempty"`
	Any   any               `json:"any,omitempty"`
	Raw   json.RawMessage   `json:"raw,omitempty"`
	Items []item            `json:"items,omitempty"`
	Next  *zoo              `json:"next,omitempty"`
	PS    *string           `json:"ps,omitempty" minLength:"3"`
	Named map[string]*item  `json:"named,omitempty"`
	Deep  [][]string        `json:"deep,omitempty"`
	Opt   map[string]string `json:"opt,omitempty"`
	UEnum uint16            `json:"uenum,omitempty" enum:"1,2"`
	UMul  uint16            `json:"umul,omitempty" maximum:"10" multipleOf:"2"`
	Cabin cabin             `json:"cabin,omitempty"`
	Cabs  []cabin           `json:"cabs,omitempty"`
	FEnum float32           `json:"fenum,omitempty" enum:"0.5,1.5"`
	UItem []item            `json:"uitems,omitempty" uniqueItems:"true"`
	UAny  []any             `json:"uany,omitempty" uniqueItems:"true"`
}

// weather has required fields and defaults.
type weather struct {
	City   string   `json:"city" minLength:"1"`
	Unit   string   `json:"unit,omitempty" enum:"C,F" default:"C"`
	Days   int      `json:"days" minimum:"1" maximum:"14" default:"3"`
	Limit  *int     `json:"limit" default:"5"`
	Tags   []string `json:"tags,omitempty" default:"[\"a\",\"b\"]"`
	Forced *int     `json:"forced" required:"true"`
	Soft   string   `json:"soft" required:"false"`
}

// Base, Other and the types below exercise embedding.
type Base struct {
	ID   string `json:"id"`
	Name string `json:"name,omitempty"`
}

type Other struct {
	Name  string `json:"name,omitempty"`
	Extra int    `json:"extra,omitempty"`
}

// embedded: Base.Name and Other.Name conflict at equal depth and are
// dropped; Other is reached through a pointer.
type embedded struct {
	Base
	*Other
	Title string `json:"title,omitempty"`
}

type tagged struct {
	V string `json:"V"`
}

type untagged struct {
	V int
}

// dominance: the outer ID (depth 0) beats Base.ID; at equal depth the
// tagged V beats the untagged one.
type dominance struct {
	Base
	tagged
	untagged
	ID int `json:"id"`
}

// tree is recursive through a slice and a pointer.
type tree struct {
	Name     string `json:"name"`
	Children []tree `json:"children,omitempty"`
	Next     *tree  `json:"next,omitempty"`
}

// Recursive types that are not structs.
type (
	recMap   map[string]recMap
	recSlice []recSlice
	recPtr   *recPtr
)

type recHolder struct {
	M recMap   `json:"m,omitempty"`
	S recSlice `json:"s,omitempty"`
}

type recPtrHolder struct {
	P recPtr `json:"p"`
}
