package mango

// projection is the trie of requested field paths; a leaf takes the whole
// value, so ["a", "a.b"] is just "a". Children are a map, so building the
// trie is linear in the total length of the paths.
type projection struct {
	name string
	leaf bool
	kids map[string]*projection
}

func compileFields(fields []string, strict bool) (*projection, error) {
	root := &projection{}
	for _, f := range fields {
		path, err := parseField(f)
		if err != nil {
			if strict {
				return nil, err
			}
			continue
		}
		p := root
		for i, seg := range path {
			next := p.kids[seg]
			if next == nil {
				next = &projection{name: seg}
				if p.kids == nil {
					p.kids = map[string]*projection{}
				}
				p.kids[seg] = next
			}
			p = next
			if p.leaf {
				break
			}
			if i == len(path)-1 {
				p.leaf = true
				p.kids = nil
			}
		}
	}
	return root, nil
}

// apply builds a new object holding only the requested paths found in v.
// Like CouchDB's mango_fields, a path that is missing is left out, and the
// containers on the way to a value are rebuilt as objects (so "items.0.sku"
// yields {"items": {"0": {"sku": ...}}}). Values are shared with v, not
// copied.
func (p *projection) apply(v any) map[string]any {
	out := make(map[string]any, len(p.kids))
	for _, k := range p.kids {
		x, st := lookup(v, []string{k.name})
		if st != found {
			continue
		}
		if k.leaf {
			out[k.name] = x
			continue
		}
		if sub := k.apply(x); len(sub) > 0 {
			out[k.name] = sub
		}
	}
	return out
}

// Project returns a new document with only fields (dotted paths, "\."
// escaping a literal dot), CouchDB-style: _id and _rev are kept only when
// listed, missing fields are omitted, and no fields means the whole doc.
// Invalid field names are ignored; ParseFind rejects them up front.
func Project(doc map[string]any, fields []string) map[string]any {
	if len(fields) == 0 {
		return doc
	}
	p, _ := compileFields(fields, false)
	return p.apply(doc)
}
