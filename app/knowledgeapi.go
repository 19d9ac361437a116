package app

import (
	"context"
	"errors"
	"os"
	"strconv"
	"strings"

	"hermes/backend/kb"
)

// KnowledgeService is the knowledge base as the window and web mode call it
// (Knowledge panel, citations): one bound service of its own beside App.
// Events: "kb:progress" (KBProgress) while files are read, "kb:changed" (a
// collection's name) when its files or state change.
//
//bindgen:bound
type KnowledgeService struct {
	core *Core
	desk *desktopHooks
}

// KBPassage is a cited passage in its page or file, for the viewer.
type KBPassage = kb.Passage

// KBList lists the collections with their counts.
func (a *KnowledgeService) KBList() ([]KBCollection, error) {
	ctx := context.Background()
	cs, err := a.core.kb.List(ctx)
	if cs == nil {
		cs = []KBCollection{}
	}
	return cs, a.core.userErr(ctx, err)
}

// KBAdd adds a folder (or one file) as a collection; its files are read in the
// background ("kb:progress").
func (a *KnowledgeService) KBAdd(root, name string) (KBCollection, error) {
	ctx := context.Background()
	c, err := a.core.kb.Add(ctx, expandHome(root), name)
	return c, a.core.userErr(ctx, err)
}

// KBFiles lists a collection's files with their state (failed first).
func (a *KnowledgeService) KBFiles(name string) ([]KBFile, error) {
	ctx := context.Background()
	fs, err := a.core.kb.Files(ctx, name)
	if fs == nil {
		fs = []KBFile{}
	}
	return fs, a.core.userErr(ctx, err)
}

// KBRemove erases a collection from the index (the files stay on disk).
func (a *KnowledgeService) KBRemove(name string) (KBReceipt, error) {
	ctx := context.Background()
	r, err := a.core.kb.Remove(ctx, name)
	return r, a.core.userErr(ctx, err)
}

// KBReindex reads every file of a collection again, in the background.
func (a *KnowledgeService) KBReindex(name string) (KBCollection, error) {
	ctx := context.Background()
	c, err := a.core.kb.Reindex(ctx, name)
	if err == nil {
		a.core.kb.resume()
	}
	return c, a.core.userErr(ctx, err)
}

// KBCancel stops the indexing under way; the files not read yet wait until
// KBResume (or the next start). It returns an error (always nil) because web
// mode's dispatch reads a bound method's last result as its error.
func (a *KnowledgeService) KBCancel() error {
	a.core.kb.cancel()
	return nil
}

// KBResume reads the waiting files in the background (nil error: see KBCancel).
func (a *KnowledgeService) KBResume() error {
	a.core.kb.resume()
	return nil
}

// KBSearch finds passages for query in every collection.
func (a *KnowledgeService) KBSearch(query string) ([]KBHit, error) {
	ctx := context.Background()
	hits, err := a.core.kb.Search(ctx, query, nil, kb.DefaultK)
	if hits == nil {
		hits = []KBHit{}
	}
	return hits, a.core.userErr(ctx, err)
}

// KBPassage is a cited passage (by its chunk id) in its page or file.
func (a *KnowledgeService) KBPassage(chunk string) (KBPassage, error) {
	ctx := context.Background()
	id, err := strconv.ParseInt(chunk, 10, 64)
	if err != nil {
		return KBPassage{}, a.core.userErr(ctx, kb.ErrNoPassage)
	}
	p, err := a.core.kb.Passage(ctx, id)
	return p, a.core.userErr(ctx, err)
}

// ErrNoDesktop is a request only the desktop window can do (a folder picker,
// opening a file) made from web mode.
var ErrNoDesktop = errors.New("only the desktop window can do this")

// KBPickFolder asks for a folder with the desktop's dialog ("" when the user
// cancels); web mode has none: the page asks for a path instead.
func (a *KnowledgeService) KBPickFolder() (string, error) {
	if a.desk.folderDialog == nil {
		return "", a.core.userErr(context.Background(), ErrNoDesktop)
	}
	return a.desk.folderDialog("Add a folder to the knowledge base")
}

// KBOpenFile hands a cited passage's file to the desktop's default program.
func (a *KnowledgeService) KBOpenFile(chunk string) error {
	ctx := context.Background()
	p, err := a.KBPassage(chunk)
	if err != nil {
		return err
	}
	if a.desk.openPath == nil {
		return a.core.userErr(ctx, ErrNoDesktop)
	}
	a.desk.openPath(p.Path)
	return nil
}

// expandHome reads a leading ~ as the home folder (what a typed path means).
func expandHome(p string) string {
	p = strings.TrimSpace(p)
	if p == "~" || strings.HasPrefix(p, "~/") {
		if home, err := os.UserHomeDir(); err == nil {
			return home + p[1:]
		}
	}
	return p
}
