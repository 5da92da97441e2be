// The smallest ledger owners a migration test needs, written by plain SQL (as a registry of an
// older schema version wrote them, which today's code would not): an organization, the catalogue
// rows a project needs, one draft project with one credit, and an inventory and a warehouse account
// ('a1', 'a2'). The same statements run on SQLite and PostgreSQL.
const ADDRESS = `0x${'a'.repeat(40)}`;

export const MINIMAL_LEDGER_OWNERS_SQL = `
  INSERT INTO organizations (id, full_name, type, created_at, updated_at) VALUES ('o', 'Org', 'proponent', 1, 1);
  INSERT INTO sectors VALUES ('s', 'S'); INSERT INTO methodologies VALUES ('m', 'M'); INSERT INTO project_types VALUES ('t', 'T', 'd');
  INSERT INTO projects (id, num, full_name, description, short_description, registry, status, start_date, crediting_period_start_date,
    sector_id, methodology_id, type_id, organization_id, contract_address, created_at, updated_at)
    VALUES ('p', '1', 'P', '', '', 'R', 'draft', 1, 1, 's', 'm', 't', 'o', '${ADDRESS}', 1, 1);
  INSERT INTO credits (id, project_id, token_address, token_id, type, vintage, serialization, created_at)
    VALUES ('c', 'p', '${ADDRESS}', 1, 'exPost', '2022', 'S-1', 1);
  INSERT INTO accounts (id, kind, organization_id, created_at) VALUES ('a1', 'inventory', 'o', 1), ('a2', 'warehouse', 'o', 1);
`;
