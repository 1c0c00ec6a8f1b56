// The walk's accessibility tests in one value: styles, roles, hidden-for-assistive-technology and names,
// each cached for one walk. `describeTarget` gets the same tests (see ObserveArgs.aria).
import { makeStyleOf, type StyleOf } from "./dom.js"
import { makeHidden, type Hidden } from "./hidden.js"
import { makeLabelsOf, makeNameOf } from "./names.js"
import { makeRoleOf, type RoleOf } from "./roles.js"

export interface Aria {
  readonly styleOf: StyleOf
  readonly roleOf: RoleOf
  readonly hidden: Hidden
  readonly labelsOf: (field: Element) => Array<HTMLLabelElement>
  readonly nameOf: (element: Element, role: string) => string
}

export const makeAria = (): Aria => {
  const styleOf = makeStyleOf()
  const context = { styleOf, roleOf: makeRoleOf(), hidden: makeHidden(styleOf), labelsOf: makeLabelsOf() }
  return { ...context, nameOf: makeNameOf(context) }
}
