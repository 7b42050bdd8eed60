package engines

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"unicode"

	"github.com/gowebpki/jcs"
)

// ManifestSchema names the manifest format.
const ManifestSchema = "askplane.engine-manifest/1"

// Manifest binds an engine id to the bytes of its implementation.
type Manifest struct {
	Schema string `json:"schema"`
	Engine string `json:"engine"`
	// Unicode is the version of the Unicode tables the tokenizer's
	// letter, digit and case rules read (Go's unicode.Version): a Go
	// release that changes them can change terms without a source edit.
	Unicode string `json:"unicode"`
	Files   []File `json:"files"`
}

// File is one source file of an engine.
type File struct {
	Path   string `json:"path"`   // from the module root, slash-separated
	Bytes  int    `json:"bytes"`  // exact length
	SHA256 string `json:"sha256"` // lowercase hex of the exact bytes
}

// Bounds of a manifest.
const (
	maxManifestFiles = 64
	maxFileBytes     = 1 << 20
)

// Compute reads an engine's source files from root (the module root) and
// returns its manifest, files in the order given.
func Compute(root fs.FS, id string, paths []string) (Manifest, error) {
	m := Manifest{Schema: ManifestSchema, Engine: id, Unicode: unicode.Version}
	if len(paths) == 0 || len(paths) > maxManifestFiles {
		return m, errors.New("engines: an engine lists 1 to 64 source files")
	}
	for _, p := range paths {
		data, err := fs.ReadFile(root, p)
		if err != nil {
			return m, fmt.Errorf("engines: %s: %w", id, err)
		}
		if len(data) == 0 || len(data) > maxFileBytes {
			return m, fmt.Errorf("engines: %s: %s is empty or over 1 MiB", id, p)
		}
		sum := sha256.Sum256(data)
		m.Files = append(m.Files, File{Path: p, Bytes: len(data), SHA256: hex.EncodeToString(sum[:])})
	}
	return m, nil
}

// Encode is the committed form of a manifest: indented JSON with a final
// newline, for a readable diff. Identities never hash it; see Digest.
func (m Manifest) Encode() []byte {
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		panic("engines: encoding a manifest: " + err.Error()) // strings and ints only
	}
	return append(b, '\n')
}

// Digest is the manifest's identity: "sha256:" + hex SHA-256 of its RFC
// 8785 canonical form.
func (m Manifest) Digest() string {
	canon, err := jcs.Transform(bytes.TrimSpace(m.Encode()))
	if err != nil {
		panic("engines: canonicalizing a manifest: " + err.Error())
	}
	sum := sha256.Sum256(canon)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// decodeManifest reads a committed manifest strictly.
func decodeManifest(data []byte) (Manifest, error) {
	var m Manifest
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		return m, err
	}
	if m.Schema != ManifestSchema || m.Engine == "" || len(m.Files) == 0 || len(m.Files) > maxManifestFiles {
		return m, errors.New("not an " + ManifestSchema + " manifest")
	}
	return m, nil
}
