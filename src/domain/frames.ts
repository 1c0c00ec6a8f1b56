// How one selector names an element inside iframes: Playwright's own step between the selector of a frame
// element and a selector in that frame's document (what its FrameLocator sends), e.g.
// `iframe[title="Pay"] >> internal:control=enter-frame >> internal:role=button[name="Pay"s]`.
export const ENTER_FRAME = " >> internal:control=enter-frame >> "
