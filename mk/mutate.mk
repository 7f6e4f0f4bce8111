# make mutate: break the code on purpose, one mutation of tests/mutations/ at a time, in a
# scratch copy of the tree, and fail unless the check stages each one names catch it
# (scripts/mutate.sh, tests/mutations/README). MUTATION=name runs one (or several, spaced).
MUTATION ?=

.PHONY: mutate
#: break the code on purpose (tests/mutations/) and check the named stages
#: catch it; MUTATION="name ..." runs only those
mutate: $(BOOTSTRAP_STAMP)
	$(Q)scripts/mutate.sh $(MUTATION)
