package evidence

var synonymTable6 = joinSynonyms(synonymTable5, synonymsFiles)

// synonymsFiles are the everyday words for files, folders and what
// commands do with them, which reference pages (a command line tool's
// above all) name in their own terms.
var synonymsFiles = map[string][]string{
	"folder":         {"directory", "dir"},
	"subfolder":      {"subdirectory", "directory"},
	"directory":      {"folder"},
	"skip":           {"exclude", "ignore"},
	"ignore":         {"exclude", "skip"},
	"pipe":           {"stdin", "stdout"},
	"standard input": {"stdin"},
	"stdin":          {"standard input"},
	"lower case":     {"lowercase"},
	"upper case":     {"uppercase"},
	"link":           {"url"},
	"disk space":     {"usage", "size", "quota"},
	"login":          {"auth", "authentication", "user"},
	"log in":         {"auth", "authentication", "user"},
	"speed up":       {"performance", "faster"},
	"slow":           {"performance"},
	"duplicate":      {"dedupe"},
}
