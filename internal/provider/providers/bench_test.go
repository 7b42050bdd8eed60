package providers_test

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/askplane/askplane/internal/provider"
	"github.com/askplane/askplane/internal/provider/anthropic"
	"github.com/askplane/askplane/internal/provider/openai"
)

const benchTokens = 20_000

// openaiBenchStream is a Responses stream of benchTokens text deltas,
// shaped like the real thing (item ids, sequence numbers, done events and
// a terminal snapshot carrying the whole text).
func openaiBenchStream() []byte {
	var b bytes.Buffer
	seq := 0
	ev := func(typ, body string) {
		fmt.Fprintf(&b, "event: %s\ndata: {\"type\":%q,\"sequence_number\":%d,%s}\n\n", typ, typ, seq, body)
		seq++
	}
	ev("response.created", `"response":{"id":"resp_b","object":"response","status":"in_progress","model":"gpt-b","output":[]}`)
	ev("response.output_item.added", `"output_index":0,"item":{"type":"message","id":"msg_b","role":"assistant","content":[]}`)
	ev("response.content_part.added", `"item_id":"msg_b","output_index":0,"content_index":0,"part":{"type":"output_text","text":"","annotations":[]}`)
	var text strings.Builder
	for i := range benchTokens {
		tok := fmt.Sprintf(" tok%d", i%97)
		text.WriteString(tok)
		ev("response.output_text.delta", fmt.Sprintf(`"item_id":"msg_b","output_index":0,"content_index":0,"delta":%q,"logprobs":[]`, tok))
	}
	ev("response.output_text.done", fmt.Sprintf(`"item_id":"msg_b","output_index":0,"content_index":0,"text":%q`, text.String()))
	ev("response.completed", fmt.Sprintf(`"response":{"id":"resp_b","object":"response","status":"completed","model":"gpt-b","output":[{"type":"message","id":"msg_b","role":"assistant","content":[{"type":"output_text","text":%q,"annotations":[]}]}],"usage":{"input_tokens":10,"output_tokens":%d,"total_tokens":%d}}`, text.String(), benchTokens, benchTokens+10))
	return b.Bytes()
}

func anthropicBenchStream() []byte {
	var b bytes.Buffer
	ev := func(typ, body string) { fmt.Fprintf(&b, "event: %s\ndata: {\"type\":%q,%s}\n\n", typ, typ, body) }
	ev("message_start", `"message":{"id":"msg_b","type":"message","role":"assistant","model":"claude-b","content":[],"stop_reason":null,"usage":{"input_tokens":10,"output_tokens":1}}`)
	ev("content_block_start", `"index":0,"content_block":{"type":"text","text":""}`)
	for i := range benchTokens {
		ev("content_block_delta", fmt.Sprintf(`"index":0,"delta":{"type":"text_delta","text":%q}`, fmt.Sprintf(" tok%d", i%97)))
	}
	ev("content_block_stop", `"index":0`)
	ev("message_delta", fmt.Sprintf(`"delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":%d}`, benchTokens))
	ev("message_stop", `"x":0`)
	return b.Bytes()
}

// accumulate is the adapters' per-stream work: SSE parsing plus the
// provider accumulator, exactly as Transport.Stream runs them.
func accumulate(tb testing.TB, data []byte, acc provider.Accumulator) int {
	d := provider.NewSSEReader(bytes.NewReader(data), provider.Limits{MaxSSELineBytes: 8 << 20, MaxSSEEventBytes: 8 << 20, MaxStreamBytes: 64 << 20})
	n := 0
	for {
		ev, err := d.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			tb.Fatal(err)
		}
		delta, err := acc.Add(ev)
		if err != nil {
			tb.Fatal(err)
		}
		if delta != "" {
			n++
		}
	}
	if _, err := acc.Response(); err != nil {
		tb.Fatal(err)
	}
	return n
}

// scan is the floor: reading the same bytes line by line, doing nothing.
func scan(data []byte) int {
	s := bufio.NewScanner(bytes.NewReader(data))
	s.Buffer(make([]byte, 64<<10), 8<<20)
	n := 0
	for s.Scan() {
		n += len(s.Bytes())
	}
	return n
}

// BenchmarkStreamPerToken reports the adapters' parse+accumulate cost per
// streamed token and its ratio to a bare bufio.Scanner pass over the same
// bytes (x-scanner), measured in the same iterations so machine noise
// hits both sides.
func BenchmarkStreamPerToken(b *testing.B) {
	for _, f := range []struct {
		name string
		data []byte
		acc  func() provider.Accumulator
	}{
		{"openai", openaiBenchStream(), func() provider.Accumulator { return openai.NewAccumulator() }},
		{"anthropic", anthropicBenchStream(), func() provider.Accumulator { return anthropic.NewAccumulator() }},
	} {
		b.Run(f.name, func(b *testing.B) {
			b.SetBytes(int64(len(f.data)))
			var adapter, floor time.Duration
			iters := 0
			for b.Loop() {
				t0 := time.Now()
				if n := accumulate(b, f.data, f.acc()); n != benchTokens {
					b.Fatalf("%d deltas", n)
				}
				t1 := time.Now()
				_ = scan(f.data)
				floor += time.Since(t1)
				adapter += t1.Sub(t0)
				iters++
			}
			tokens := float64(iters * benchTokens)
			b.ReportMetric(float64(adapter.Nanoseconds())/tokens, "ns/token")
			b.ReportMetric(float64(floor.Nanoseconds())/tokens, "scan-ns/token")
			b.ReportMetric(float64(adapter)/float64(floor), "x-scanner")
		})
	}
}
