package tools

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
)

// DefinitionHash is the SHA-256 (hex) of what defines a tool to the user and the
// model: name, description, parameter and result schemas (canonical JSON) and
// annotations. An approval is bound to it, so a changed tool asks again.
func DefinitionHash(t Tool) string { return definitionHash(t, rawOrNull(canonicalRaw(t.Parameters()))) }

// definitionHash is DefinitionHash with the parameter schema already in the
// form it hashes (paramSchema.hashed).
func definitionHash(t Tool, params json.RawMessage) string {
	var result json.RawMessage
	if rs, ok := t.(ResultSchemer); ok {
		result = rs.ResultSchema()
	}
	def := struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		Parameters  json.RawMessage `json:"parameters"`
		Result      json.RawMessage `json:"result_schema,omitempty"`
		Annotations Annotations     `json:"annotations"`
	}{t.Name(), t.Description(), params, rawOrNil(canonicalRaw(result)), t.Annotations()}
	b, _ := json.Marshal(def) // every field marshals
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

func rawOrNull(b []byte) json.RawMessage {
	if len(b) == 0 || !json.Valid(b) {
		return json.RawMessage("null")
	}
	return b
}

func rawOrNil(b []byte) json.RawMessage {
	if len(b) == 0 || !json.Valid(b) {
		return nil
	}
	return b
}
