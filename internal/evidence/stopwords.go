package evidence

// stopwords are English function words that match nearly every record and
// would otherwise let "how do I …" questions pull in arbitrary sections.
// The list is small and fixed: it is part of the engine's identity, so
// changing it requires a new EngineID.
var stopwords = map[string]struct{}{}

func init() {
	for _, w := range []string{
		"a", "an", "and", "are", "as", "at", "be", "but", "by", "can", "do", "does",
		"for", "from", "how", "i", "if", "in", "into", "is", "it", "its", "me", "my",
		"of", "on", "or", "our", "so", "that", "the", "their", "then", "there",
		"these", "this", "to", "was", "we", "what", "when", "where", "which", "who",
		"why", "will", "with", "you", "your",
	} {
		stopwords[w] = struct{}{}
	}
}
