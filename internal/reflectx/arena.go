package reflectx

import (
	"reflect"
	"strconv"
	"sync"
	"sync/atomic"
	"unsafe"
)

// A frame is the one allocation of a [Plan.DecodeJSONNew] call: the decoded
// value first, then string slots for the call's string slices and *string
// pointees, then bytes for its strings and scalar pointees (*int, *float64,
// *bool). Slots and bytes are sized by what the plan's last decode used, so
// arguments alike from call to call (one tool's) take one allocation in
// all. What does not fit goes to fresh allocations, as without a frame.
//
// Strings, slices and pointers handed out point into the frame and keep it
// alive; they never overlap, and no part of a frame is ever reused by a
// later call, so a handler may keep any of them.
type frame struct {
	t        reflect.Type // struct{ V T; S [nslots]string; B [nbytes]byte }, V only with value; nil when empty
	slotsOff uintptr
	bytesOff uintptr
	key      frameKey // sizes: nslots slots, nbytes bytes
}

// Frame sizes are rounded up to these steps; hints change only when a
// call needs more or less than half (noteCopied), so a plan makes a few
// frame types (kept forever by reflect), cached in frames.
const (
	frameByteStep = 16
	frameSlotStep = 1
	maxFrameSlots = 32
)

// frames caches a plan's frame types: the one used last, and all by size.
type frames struct {
	last atomic.Pointer[frame]
	all  sync.Map // frameKey -> *frame
}

type frameKey struct {
	nbytes, nslots int
	value          bool
}

var (
	stringType = reflect.TypeFor[string]()
	byteType   = reflect.TypeFor[byte]()
)

// frameFor returns the frame of plan p with room for at least nbytes bytes
// (at most arenaChunk) and nslots string slots (at most maxFrameSlots),
// and with the value itself when value is set.
func (p *Plan) frameFor(nbytes, nslots int, value bool) *frame {
	k := frameKey{
		nbytes: (min(nbytes, arenaChunk) + frameByteStep - 1) / frameByteStep * frameByteStep,
		nslots: (min(nslots, maxFrameSlots) + frameSlotStep - 1) / frameSlotStep * frameSlotStep,
		value:  value,
	}
	if f := p.frames.last.Load(); f != nil && f.key == k {
		return f
	}
	if v, ok := p.frames.all.Load(k); ok {
		f := v.(*frame)
		p.frames.last.Store(f)
		return f
	}
	f := &frame{key: k}
	var fs []reflect.StructField
	if value {
		fs = append(fs, reflect.StructField{Name: "V", Type: p.t})
	}
	if k.nslots > 0 {
		fs = append(fs, reflect.StructField{Name: "S", Type: reflect.ArrayOf(k.nslots, stringType)})
	}
	if k.nbytes > 0 {
		fs = append(fs, reflect.StructField{Name: "B", Type: reflect.ArrayOf(k.nbytes, byteType)})
	}
	if len(fs) > 0 {
		f.t = reflect.StructOf(fs)
		for i := range fs {
			switch fs[i].Name {
			case "S":
				f.slotsOff = f.t.Field(i).Offset
			case "B":
				f.bytesOff = f.t.Field(i).Offset
			}
		}
	}
	v, _ := p.frames.all.LoadOrStore(k, f)
	f = v.(*frame)
	p.frames.last.Store(f)
	return f
}

// DecodeJSONNew decodes JSON text, validating it as [Plan.DecodeJSON] does,
// into a new value of the plan's type, and returns its address (nil with
// the error when the text does not decode). The value shares one allocation
// with what the call decodes into fresh memory where it fits: its strings,
// the backing arrays of its string slices, and the targets of pointers to
// strings and numbers.
func (p *Plan) DecodeJSONNew(data []byte, lim Limits) (unsafe.Pointer, error) {
	d := getDecoder()
	d.lim = lim.resolve()
	if len(data) > d.lim.MaxBytes {
		d.abort(ErrTooLarge, "arguments of at most "+strconv.Itoa(d.lim.MaxBytes)+" bytes", strconv.Itoa(len(data))+" bytes")
		return nil, d.finish()
	}
	hint, slotHint := int(p.arenaHint.Load()), int(p.slotHint.Load())
	base := d.useFrame(p.frameFor(hint, slotHint, true))
	d.hint = hint
	d.decodeJSON(p, base, data)
	p.noteCopied(hint, d.copied)
	noteHint(&p.slotHint, slotHint, d.used, maxFrameSlots)
	if err := d.finish(); err != nil {
		return nil, err
	}
	return base, nil
}

// DecodeMapNew is [Plan.DecodeMapLimits] into a new value of the plan's
// type, whose address it returns (nil with the error when args do not
// decode). The value shares one allocation with the backing arrays of its
// string slices and the targets of pointers to strings and numbers, where
// they fit. Strings are not copied: they are the map's.
func (p *Plan) DecodeMapNew(args map[string]any, lim Limits) (unsafe.Pointer, error) {
	d := getDecoder()
	d.lim = lim.resolve()
	d.budget = d.lim.MaxBytes
	hint, slotHint := int(p.mapHint.Load()), int(p.mapSlotHint.Load())
	base := d.useFrame(p.frameFor(hint, slotHint, true))
	d.decodeMap(p, base, args)
	noteHint(&p.mapHint, hint, d.copied, arenaChunk)
	noteHint(&p.mapSlotHint, slotHint, d.used, maxFrameSlots)
	if err := d.finish(); err != nil {
		return nil, err
	}
	return base, nil
}

// useFrame allocates a frame of type f (none when it is empty), makes its
// slots and bytes those of d, and returns its address (that of the value,
// when it holds one).
func (d *decoder) useFrame(f *frame) unsafe.Pointer {
	if f.t == nil {
		return nil
	}
	base := reflect.New(f.t).UnsafePointer()
	if f.key.nslots > 0 {
		d.slots = unsafe.Slice((*string)(unsafe.Add(base, f.slotsOff)), f.key.nslots)
	}
	if f.key.nbytes > 0 {
		d.arena = unsafe.Slice((*byte)(unsafe.Add(base, f.bytesOff)), f.key.nbytes)
	}
	return base
}

// A reserve is what a [Scratch] keeps of its last decode's frame: the string
// slots and bytes that decode did not hand out. Small calls take their
// memory from it, and a frame for a few calls at once when it runs short,
// so that a tool whose calls are alike makes one allocation every few
// calls instead of one per call. What it holds was never handed out:
// every part of a frame still goes to one call only, and a handler that
// keeps a string keeps at most the frame of reserveCalls calls alive.
type reserve struct {
	arena []byte
	slots []string
}

// reserveCalls is how many calls' worth of slots and bytes a frame taken
// for a reserve holds, within frameFor's bounds (arenaChunk bytes,
// maxFrameSlots slots): calls near those bounds get a frame each, as
// without a reserve.
const reserveCalls = 4

// takeFrame gives d the memory of a decode for which the plan p expects
// hint bytes and slotHint string slots: those r holds when they are
// enough, else a new frame (for reserveCalls calls when r is not nil).
func (d *decoder) takeFrame(p *Plan, r *reserve, hint, slotHint int) {
	switch {
	case r == nil:
		d.useFrame(p.frameFor(hint, slotHint, false))
	case len(r.arena) >= hint && len(r.slots) >= slotHint:
		d.arena, d.slots = r.arena, r.slots
		r.arena, r.slots = nil, nil
	default:
		r.arena, r.slots = nil, nil
		d.useFrame(p.frameFor(reserveCalls*hint, reserveCalls*slotHint, false))
	}
}

// keepRest puts what d's decode left of its slots and bytes into r (when
// not nil). Past d.alen and d.slen nothing was handed out: the slots are
// zero, and the bytes are written (or cleared, for a pointee) before they
// are handed out.
func (d *decoder) keepRest(r *reserve) {
	if r == nil {
		return
	}
	if d.alen < len(d.arena) {
		r.arena = d.arena[d.alen:]
	}
	if d.slen < len(d.slots) {
		r.slots = d.slots[d.slen:]
	}
}

// UserMethods reports whether decoding may call a user's UnmarshalJSON or
// UnmarshalText method, which may keep a pointer into the value decoded.
// When it does not, nothing of a decode keeps a pointer into the value, and
// the caller may reuse the memory it decoded into once it copied the value
// out.
func (p *Plan) UserMethods() bool {
	switch p.userMethods.Load() {
	case 1:
		return false
	case 2:
		return true
	}
	r := int32(1)
	if userMethods(p.root, map[*node]bool{}) {
		r = 2
	}
	p.userMethods.Store(r)
	return r == 2
}

func userMethods(n *node, seen map[*node]bool) bool {
	if n == nil || seen[n] {
		return false
	}
	seen[n] = true
	if n.kind == kText || n.kind == kJSONU || userMethods(n.elem, seen) {
		return true
	}
	if n.st != nil {
		for i := range n.st.fields {
			if userMethods(n.st.fields[i].node, seen) {
				return true
			}
		}
	}
	return false
}

// noteHint updates a sizing hint after a decode that used used units with
// hint in force: it grows to what was needed (up to most) and shrinks only
// below half, so that calls alike keep the shared Plan's cache line clean.
func noteHint(h *atomic.Int32, hint, used, most int) {
	used = min(used, most)
	if used > hint || used < hint/2 {
		h.Store(int32(used))
	}
}

// takeSlots returns n > 0 zeroed string slots for the backing array of one
// slice: from d.slots when they have room, else a new array.
func (d *decoder) takeSlots(n int) unsafe.Pointer {
	d.used += n
	if len(d.slots)-d.slen >= n {
		d.slen += n
		return unsafe.Pointer(&d.slots[d.slen-n])
	}
	return unsafe.Pointer(unsafe.SliceData(make([]string, n)))
}

// newPointee returns zeroed memory for the target of a pointer of node n
// (a kPtr), from the call's slots or bytes when its type allows and they
// have room, else from a fresh allocation.
func (d *decoder) newPointee(e *node) unsafe.Pointer {
	switch e.kind {
	case kString:
		d.used++
		if d.slen < len(d.slots) {
			d.slen++
			return unsafe.Pointer(&d.slots[d.slen-1])
		}
	case kBool, kInt, kUint, kFloat:
		// No pointers inside: the noscan bytes may hold it.
		size := int(e.size)
		d.copied += size + 8 // with room for alignment
		if l := d.alen; l < len(d.arena) {
			pad := int(-uintptr(unsafe.Pointer(&d.arena[l])) & (e.align - 1))
			if len(d.arena)-l >= pad+size {
				d.alen = l + pad + size
				b := d.arena[l+pad : l+pad+size]
				clear(b) // strToArena may have written past what it handed out
				return unsafe.Pointer(&b[0])
			}
		}
	}
	return reflect.New(e.t).UnsafePointer()
}

// growSlots gives d.slots room for at least one more slot, keeping its
// last keep slots (the slice being decoded) at the start of new ones.
func (d *decoder) growSlots(keep int) {
	s := make([]string, max(2*keep, 8))
	copy(s, d.slots[d.slen-keep:d.slen])
	d.slots, d.slen = s, keep
}
