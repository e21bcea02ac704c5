import ICAL from "ical.js";

/** A VCALENDAR parsed strictly: ical.js throws on any malformed line. */
export function parseCalendar(text: string): ICAL.Component {
  return new ICAL.Component(ICAL.parse(text));
}

export function veventsOf(calendar: ICAL.Component): ICAL.Component[] {
  return calendar.getAllSubcomponents("vevent");
}

/** The raw (unfolded) content lines of a property, as written. */
export function rawLines(text: string, name: string): string[] {
  return text
    .replace(/\r\n[ \t]/g, "")
    .split("\r\n")
    .filter((line) => line.startsWith(`${name};`) || line.startsWith(`${name}:`));
}

/** Every physical line ends with CRLF and holds at most 75 octets. */
export function foldingProblems(text: string): string[] {
  if (!text.endsWith("\r\n")) return ["no final CRLF"];
  const lines = text.slice(0, -2).split("\r\n");
  return lines.flatMap((line, index) => {
    if (line.includes("\n") || line.includes("\r")) return [`bare line break in line ${index + 1}`];
    return Buffer.byteLength(line, "utf8") > 75 ? [`line ${index + 1} is ${Buffer.byteLength(line)} octets`] : [];
  });
}
