// Small helpers shared by the pages: JSON requests whose errors carry the server's message.
export async function request(method, url, body) {
  const options = { method, headers: { Accept: "application/json" } };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(url, options);
  const data = response.status === 204 ? null : await response.json();
  if (!response.ok) {
    const problem = new Error(data && data.error ? data.error : response.statusText);
    problem.field = data && data.field; // a new game's choice at fault, as the form names it
    throw problem;
  }
  return data;
}

export function element(tag, attributes = {}, text = "") {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  if (text) node.textContent = text;
  return node;
}
