package replay

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"strconv"
	"time"

	"github.com/askplane/askplane/internal/evidence"
)

// MaxBodyBytes bounds a replay or read request: a fragment is at most
// 16,000 characters, a recipe object a little more.
const MaxBodyBytes = 32 << 10

// Request is the body of POST /v1/evidence/replay and, with the read
// members, of POST /v1/evidence/read: exactly one of Recipe (the decoded
// recipe object) and Fragment (a review link's fragment, without '#').
type Request struct {
	Recipe   json.RawMessage `json:"recipe,omitempty"`
	Fragment string          `json:"fragment,omitempty"`

	Section  string `json:"section,omitempty"`   // read: record_text (default with record_id) or package
	RecordID string `json:"record_id,omitempty"` // read: record_text's record
	Offset   int    `json:"offset,omitempty"`    // read: UTF-16 code units
	MaxBytes int    `json:"max_bytes,omitempty"` // read: 8192..65536, default 16384
}

// Response is POST /v1/evidence/replay's success body. Recipe and
// Fragment pin the engine that rebuilt the package, for continuation
// (reads, a new review link): they claim the bytes, not the origin.
type Response struct {
	Evidence       json.RawMessage `json:"evidence"`
	ReplayIdentity Identity        `json:"replay_identity"`
	Recipe         evidence.Recipe `json:"recipe"`
	Fragment       string          `json:"fragment"`
}

// Handler serves POST /v1/evidence/replay (Read false) or
// /v1/evidence/read (Read true) for one Replayer. Access, Host, Origin
// and rate rules are the sidecar's, in front of it.
type Handler struct {
	Replayer *Replayer
	Read     bool
	// BodyTimeout bounds reading the body; 0 means 10 s.
	BodyTimeout time.Duration
}

func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", "POST")
		writeError(w, http.StatusMethodNotAllowed, fail(CodeInvalidRequest, "use POST"))
		return
	}
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		writeError(w, http.StatusUnsupportedMediaType, fail(CodeInvalidRequest, "the body must be application/json"))
		return
	}
	req, err := h.decode(w, r)
	if err != nil {
		writeError(w, 0, err)
		return
	}
	recipe, err := req.recipe()
	if err != nil {
		writeError(w, 0, err)
		return
	}
	if !h.Read && (req.Section != "" || req.RecordID != "" || req.Offset != 0 || req.MaxBytes != 0) {
		writeError(w, 0, invalid("read members belong to /v1/evidence/read"))
		return
	}
	res, err := h.Replayer.Replay(r.Context(), recipe)
	if err != nil {
		writeError(w, 0, err)
		return
	}
	var body []byte
	if h.Read {
		section := req.Section
		if section == "" {
			section = SectionRecordText
		}
		if body, err = Slice(res, section, req.RecordID, req.Offset, req.MaxBytes); err != nil {
			writeError(w, 0, err)
			return
		}
	} else {
		pinned := res.Package.Recipe()
		pinned.EngineID = res.Identity.Engine
		body = marshal(Response{Evidence: res.Package.JSON(), ReplayIdentity: res.Identity, Recipe: pinned, Fragment: pinned.Fragment()})
	}
	writeJSON(w, http.StatusOK, body)
}

func (h *Handler) decode(w http.ResponseWriter, r *http.Request) (Request, error) {
	var req Request
	if r.ContentLength > MaxBodyBytes {
		return req, &Error{Code: CodeInvalidRequest, Message: "the body is larger than 32 KiB"}
	}
	timeout := h.BodyTimeout
	if timeout <= 0 {
		timeout = 10 * time.Second
	}
	http.NewResponseController(w).SetReadDeadline(time.Now().Add(timeout))
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBodyBytes))
	if err != nil {
		return req, invalid("the body could not be read within 32 KiB and the body timeout")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil || dec.More() {
		return req, invalid("the body is not a replay request object")
	}
	return req, nil
}

func (req Request) recipe() (evidence.Recipe, error) {
	switch {
	case len(req.Recipe) > 0 && req.Fragment != "":
		return evidence.Recipe{}, invalid("give recipe or fragment, not both")
	case len(req.Recipe) > 0:
		return ParseRecipe(req.Recipe)
	case req.Fragment != "":
		return ParseFragment(req.Fragment)
	}
	return evidence.Recipe{}, invalid("a recipe or a fragment is required")
}

// ErrorBody is every refusal's body.
type ErrorBody struct {
	Error struct {
		Code    Code   `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// writeError writes err's code and fixed message with status, or the
// code's own status when status is 0. A cause that is not an *Error is a
// server failure and is not described.
func writeError(w http.ResponseWriter, status int, err error) {
	var e *Error
	if !errors.As(err, &e) {
		e = fail(CodeUnavailable, "the replay failed")
	}
	if status == 0 {
		status = e.Code.Status()
	}
	var body ErrorBody
	body.Error.Code, body.Error.Message = e.Code, e.Message
	switch e.Code {
	case CodeBudget:
		w.Header().Set("Retry-After", "1")
	case CodeBusy:
		w.Header().Set("Retry-After", strconv.Itoa(RetrySeconds(e.RetryAfter)))
	}
	writeJSON(w, status, marshal(body))
}

func writeJSON(w http.ResponseWriter, status int, body []byte) {
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	w.Write(body)
}

func marshal(v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic("replay: encoding a response: " + err.Error())
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

// RetrySeconds is d in whole seconds for a Retry-After header, rounded up,
// at least 1.
func RetrySeconds(d time.Duration) int {
	return max(1, int((d+time.Second-1)/time.Second))
}
