package protocol

// Protocol names and the one version this package speaks.
const (
	SiteProtocol      = "agentskit.chat.site"
	KnowledgeProtocol = "agentskit.chat.knowledge"
	AnswerProtocol    = "agentskit.chat.answer"
	AskProtocol       = "agentskit.chat.ask"
	Version           = 1
)

// ValidIdentifier reports whether s is a SafeIdentifier:
// ^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$ — ASCII, 1–128 characters, starting
// with a letter or digit. Site, artifact, entry, citation, suggestion and
// session ids all use it, so ids are safe in URLs, DOM ids and logs.
func ValidIdentifier(s string) bool {
	if len(s) == 0 || len(s) > MaxIdentifierLen || !isAlnum(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !isAlnum(c) && c != '.' && c != '_' && c != ':' && c != '-' {
			return false
		}
	}
	return true
}

func isAlnum(c byte) bool {
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
}

// ValidContentHash reports whether s is "sha256:" followed by 64 lowercase
// hex digits. Uppercase hex is rejected so that one digest has one spelling.
func ValidContentHash(s string) bool {
	const prefix = "sha256:"
	if len(s) != len(prefix)+64 || s[:len(prefix)] != prefix {
		return false
	}
	for i := len(prefix); i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9') && !(c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}
