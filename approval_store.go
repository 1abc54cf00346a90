package toolnexus

import (
	"container/heap"
	"context"
	"fmt"
	"sync"
	"time"
)

// ApprovalStore records the pending calls whose decisions [Toolkit.Resume]
// carries out, so that each is carried out once ([WithApprovalStore]).
// Resume claims every pending call it has a decision about (approve, deny
// or edit) once the call's digest and the decision are checked, before it
// runs anything, and releases its claims when it refuses the decisions
// after all (another of them was decided before).
//
// An implementation keys on the pending call's Nonce. It must be safe for
// concurrent use, and claim atomically: of concurrent Claims of one
// Nonce, from any process that shares the store, exactly one reports
// true, as an insert under a unique key does (SQL's INSERT, Redis's SET
// NX). It must remember a claim at least until the call's Expires, or for
// as long as any of its toolkits may resume the call when Expires is zero
// (set an expiry, [WithApprovalExpiry], to let it forget). Without a key
// ([WithApprovalKey]) whoever can alter a stored pending call can give it
// a new Nonce: the store holds against replays of the stored state, the
// key against forgers.
type ApprovalStore interface {
	// Claim records p as decided and reports true, or reports false if it
	// was claimed before and not released. An error refuses the decision.
	Claim(ctx context.Context, p PendingCall) (bool, error)
	// Release forgets a claim of p that Resume made and did not carry
	// out, so that p may be decided again.
	Release(ctx context.Context, p PendingCall) error
}

// DefaultApprovalMemory is how many decided pending calls the default
// [ApprovalStore] of a toolkit remembers ([NewApprovalMemory]).
const DefaultApprovalMemory = 1 << 16

// NewApprovalMemory returns an [ApprovalStore] in memory, for the toolkits
// of one process that share it, which remembers up to max decided calls
// (max < 1 means [DefaultApprovalMemory]). When full, it forgets the call
// issued first; if that call had not expired, it refuses from then on
// every call issued at or before it (any of them may have been decided:
// its Claim returns an error wrapping [ErrDecided]), so that forgetting
// never lets a decision run twice. Set an expiry ([WithApprovalExpiry])
// shorter than the time max decisions take, or give it room for more
// decisions than are made while a call waits. Each claim costs time
// logarithmic in max, and about 150 bytes.
func NewApprovalMemory(max int) ApprovalStore {
	if max < 1 {
		max = DefaultApprovalMemory
	}
	return &approvalMemory{max: max}
}

// approvalMemory is NewApprovalMemory's store: the claimed calls by
// nonce, and a heap of them by issue time, for forgetting the first.
type approvalMemory struct {
	mu      sync.Mutex
	max     int
	claimed map[string]claimedCall
	byTime  claimHeap // may hold entries of released calls: claimed says
	seq     uint64
	forgot  time.Time // the latest issue time of a call forgotten while it had not expired
}

type claimedCall struct {
	seq     uint64
	expires time.Time
}

func (m *approvalMemory) Claim(_ context.Context, p PendingCall) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.forgot.IsZero() && !p.Issued.After(m.forgot) {
		return false, fmt.Errorf("the store no longer remembers every call issued at or before %s (it holds %d): %w", m.forgot.Format(time.RFC3339Nano), m.max, ErrDecided)
	}
	if _, ok := m.claimed[p.Nonce]; ok {
		return false, nil
	}
	if m.claimed == nil {
		m.claimed = make(map[string]claimedCall)
	}
	if len(m.claimed) >= m.max {
		m.forget(time.Now())
	}
	m.seq++
	m.claimed[p.Nonce] = claimedCall{seq: m.seq, expires: p.Expires}
	heap.Push(&m.byTime, claimEntry{issued: p.Issued, seq: m.seq, nonce: p.Nonce})
	return true, nil
}

func (m *approvalMemory) Release(_ context.Context, p PendingCall) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.claimed, p.Nonce)
	if len(m.byTime) > 2*m.max+16 { // entries of released calls: drop them
		live := m.byTime[:0]
		for _, e := range m.byTime {
			if c, ok := m.claimed[e.nonce]; ok && c.seq == e.seq {
				live = append(live, e)
			}
		}
		clear(m.byTime[len(live):])
		m.byTime = live
		heap.Init(&m.byTime)
	}
	return nil
}

// forget drops the call issued first until there is room for one more;
// one that had not expired at now raises forgot.
func (m *approvalMemory) forget(now time.Time) {
	for len(m.claimed) >= m.max && len(m.byTime) > 0 {
		e := heap.Pop(&m.byTime).(claimEntry)
		c, ok := m.claimed[e.nonce]
		if !ok || c.seq != e.seq {
			continue // released
		}
		delete(m.claimed, e.nonce)
		if c.expires.IsZero() || now.Before(c.expires) {
			if e.issued.After(m.forgot) {
				m.forgot = e.issued
			}
		}
	}
}

// claimEntry is a claimed call in the heap.
type claimEntry struct {
	issued time.Time
	seq    uint64
	nonce  string
}

// claimHeap orders claims by issue time, then by claim order.
type claimHeap []claimEntry

func (h claimHeap) Len() int { return len(h) }
func (h claimHeap) Less(i, j int) bool {
	if !h[i].issued.Equal(h[j].issued) {
		return h[i].issued.Before(h[j].issued)
	}
	return h[i].seq < h[j].seq
}
func (h claimHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *claimHeap) Push(x any)   { *h = append(*h, x.(claimEntry)) }
func (h *claimHeap) Pop() any {
	old := *h
	e := old[len(old)-1]
	old[len(old)-1] = claimEntry{}
	*h = old[:len(old)-1]
	return e
}
