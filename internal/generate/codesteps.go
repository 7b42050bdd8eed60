package generate

import "github.com/askplane/askplane/internal/chunk"

// codeSteps answers a question asking for the steps with a section
// written as captioned commands rather than a numbered list: short
// paragraphs each followed by the code they caption ("Fetch and unpack"
// then curl and unzip, "Copy binary file" then sudo cp, "Install
// manpage" then mandb), as install and tutorial pages often are. Each
// caption becomes a numbered step with its code, in reading order, as
// writeSteps quotes a numbered guide; paragraphs captioning no code are
// left out. False, having written nothing, when the lead's record has
// fewer than three captioned commands, or a caption too long to be a
// step.
func (c *composer) codeSteps(lead int) bool {
	if c.sh != shapeHowto || !c.stepsAsked {
		return false
	}
	rec := c.sents[lead].rec
	if c.own[rec] == 0 {
		return false // a section whose heading says nothing asked ("Configuration" for an RC file's steps) walks through something else
	}
	bs := c.pkg.Records[rec].Blocks
	var all []step
	for bi := 0; bi+1 < len(bs); bi++ {
		if bs[bi].Kind != chunk.Paragraph || bs[bi+1].Kind != chunk.Code {
			continue
		}
		if len(bs[bi].Text) > 240 || fewWords(bs[bi].Text, 2) {
			// Too long to be a step, or one word: a tab's label
			// ("hugo.toml", "hugo.yaml") over the same setting in
			// another format, an alternative and not a step.
			return false
		}
		all = append(all, step{text: bs[bi].Text, code: bi + 1})
	}
	if len(all) < 3 {
		return false
	}
	c.writeSteps(rec, all, "")
	c.seeAlso(rec)
	return true
}
