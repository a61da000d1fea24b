" Meeple rules files: a small highlighting for Neovim and Vim (the VS Code extension has a fuller
" TextMate grammar). tests/editors.rs checks that every keyword of the language is named here.
if exists("b:current_syntax")
  finish
endif

syn keyword meepleDeclaration game variant base excludes enum var kind record table die def effect phase
syn keyword meepleDeclaration action setup flow score goal winners invariant scenario show section
syn keyword meepleDeclaration add replace remove
syn keyword meepleModifier player public secret hidden internal secretly shown visible when named
syn keyword meepleModifier listed source seats always ask
syn keyword meepleType int bool list of
syn keyword meepleStatement let if then else match for in where while repeat break continue return
syn keyword meepleStatement turn only choose require prefer because log tell roll random shuffle end
syn keyword meepleStatement eliminate window reveal conceal
" `only when no other` after an action: `no` and `other` are words only there.
syn match meepleStatement "\<when\s\+\zsno\s\+other\>"
syn keyword meepleStatement each by from as at any exactly most over until pop
syn keyword meepleScenario players seed play set run expect refused rolls picks shuffles before
syn keyword meepleScenario move to
syn keyword meepleOperator and or not
syn keyword meepleConstant true false none me
syn match meepleNumber "\<\d\+\>"
" Built-in functions and queries, where a call follows (a variable may be named `take`).
" tests/editors.rs checks that the list is `ir::Builtin::ALL` and `ir::QUERY_NAMES`.
syn match meepleFunction "\<\(count\|sum\|min\|max\|duplicates\|others\|seats_from\|next\|prev\|reverse\|abs\|first\|last\|seat\|distinct\|sort\|nth\|take\|drop\|position\|subsets\|at_seat\|clamp\|any\|all\|top\|bottom\|sorted\)\ze\s*("
" `sep` before a text, in a text's `{each ...}`: a word only there.
syn match meepleStatement "\<sep\ze\s*\"" contained
" A text's `{if ... then "..."}` and `{each ... "..."}` hold texts of their own.
syn region meepleInterpolation matchgroup=meepleDelimiter start="{" end="}" contained contains=meepleNumber,meepleFunction,meepleConstant,meepleOperator,meepleStatement,meepleString
syn region meepleString start=+"+ skip=+\\\\\|\\"+ end=+"+ contains=meepleInterpolation
syn match meepleComment "#.*$" contains=@Spell

hi def link meepleDeclaration Structure
hi def link meepleModifier StorageClass
hi def link meepleType Type
hi def link meepleStatement Statement
hi def link meepleScenario PreProc
hi def link meepleOperator Operator
hi def link meepleConstant Constant
hi def link meepleNumber Number
hi def link meepleFunction Function
hi def link meepleString String
hi def link meepleDelimiter Delimiter
hi def link meepleComment Comment

let b:current_syntax = "meeple"
