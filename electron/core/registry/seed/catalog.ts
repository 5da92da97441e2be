// The vocabulary the demo registry is drawn from: places, sectors, methodologies and project
// archetypes that look like a real voluntary carbon market. Methodology codes are this demo
// registry's own (RDR-…), not those of any real standard.

export interface Place {
  city: string;
  state: string;
  lat: number;
  lng: number;
}

/** Countries hosting projects, with a few towns each (coordinates approximate). */
export const HOST_COUNTRIES: Readonly<Record<string, readonly Place[]>> = {
  KE: [
    { city: 'Kisumu', state: 'Kisumu County', lat: -0.09, lng: 34.77 },
    { city: 'Nanyuki', state: 'Laikipia County', lat: 0.01, lng: 37.07 },
    { city: 'Voi', state: 'Taita-Taveta County', lat: -3.39, lng: 38.56 },
  ],
  BR: [
    { city: 'Manaus', state: 'Amazonas', lat: -3.12, lng: -60.02 },
    { city: 'Belém', state: 'Pará', lat: -1.46, lng: -48.49 },
    { city: 'Cuiabá', state: 'Mato Grosso', lat: -15.6, lng: -56.1 },
  ],
  IN: [
    { city: 'Pune', state: 'Maharashtra', lat: 18.52, lng: 73.86 },
    { city: 'Jaipur', state: 'Rajasthan', lat: 26.91, lng: 75.79 },
    { city: 'Bhubaneswar', state: 'Odisha', lat: 20.3, lng: 85.82 },
  ],
  ID: [
    { city: 'Palangka Raya', state: 'Central Kalimantan', lat: -2.21, lng: 113.92 },
    { city: 'Pekanbaru', state: 'Riau', lat: 0.51, lng: 101.45 },
  ],
  CO: [
    { city: 'Villavicencio', state: 'Meta', lat: 4.14, lng: -73.63 },
    { city: 'Quibdó', state: 'Chocó', lat: 5.69, lng: -76.66 },
  ],
  PE: [
    { city: 'Pucallpa', state: 'Ucayali', lat: -8.38, lng: -74.55 },
    { city: 'Puerto Maldonado', state: 'Madre de Dios', lat: -12.59, lng: -69.19 },
  ],
  MX: [
    { city: 'Oaxaca', state: 'Oaxaca', lat: 17.07, lng: -96.73 },
    { city: 'Mérida', state: 'Yucatán', lat: 20.97, lng: -89.62 },
  ],
  VN: [
    { city: 'Cần Thơ', state: 'Cần Thơ', lat: 10.05, lng: 105.75 },
    { city: 'Huế', state: 'Thừa Thiên Huế', lat: 16.46, lng: 107.59 },
  ],
  KH: [{ city: 'Siem Reap', state: 'Siem Reap', lat: 13.36, lng: 103.86 }],
  UG: [
    { city: 'Gulu', state: 'Northern Region', lat: 2.78, lng: 32.3 },
    { city: 'Mbarara', state: 'Western Region', lat: -0.61, lng: 30.65 },
  ],
  TZ: [
    { city: 'Arusha', state: 'Arusha', lat: -3.39, lng: 36.68 },
    { city: 'Morogoro', state: 'Morogoro', lat: -6.82, lng: 37.66 },
  ],
  ET: [
    { city: 'Bahir Dar', state: 'Amhara', lat: 11.59, lng: 37.39 },
    { city: 'Hawassa', state: 'Sidama', lat: 7.06, lng: 38.48 },
  ],
  GH: [
    { city: 'Tamale', state: 'Northern Region', lat: 9.4, lng: -0.84 },
    { city: 'Kumasi', state: 'Ashanti', lat: 6.69, lng: -1.62 },
  ],
  NG: [
    { city: 'Kano', state: 'Kano', lat: 12.0, lng: 8.52 },
    { city: 'Enugu', state: 'Enugu', lat: 6.44, lng: 7.49 },
  ],
  ZM: [{ city: 'Kasama', state: 'Northern Province', lat: -10.21, lng: 31.18 }],
  MZ: [{ city: 'Beira', state: 'Sofala', lat: -19.83, lng: 34.84 }],
  MG: [{ city: 'Toamasina', state: 'Atsinanana', lat: -18.15, lng: 49.4 }],
  PH: [
    { city: 'Iloilo', state: 'Western Visayas', lat: 10.72, lng: 122.56 },
    { city: 'Davao', state: 'Davao Region', lat: 7.19, lng: 125.46 },
  ],
  TH: [{ city: 'Chiang Mai', state: 'Chiang Mai', lat: 18.79, lng: 98.98 }],
  BD: [{ city: 'Khulna', state: 'Khulna Division', lat: 22.85, lng: 89.54 }],
  NP: [{ city: 'Pokhara', state: 'Gandaki', lat: 28.21, lng: 83.99 }],
  TR: [{ city: 'İzmir', state: 'İzmir', lat: 38.42, lng: 27.14 }],
  CL: [{ city: 'Valdivia', state: 'Los Ríos', lat: -39.81, lng: -73.25 }],
  GT: [{ city: 'Cobán', state: 'Alta Verapaz', lat: 15.47, lng: -90.37 }],
  US: [
    { city: 'Missoula', state: 'Montana', lat: 46.87, lng: -113.99 },
    { city: 'Des Moines', state: 'Iowa', lat: 41.59, lng: -93.62 },
  ],
  CA: [{ city: 'Prince George', state: 'British Columbia', lat: 53.92, lng: -122.75 }],
  AU: [{ city: 'Longreach', state: 'Queensland', lat: -23.44, lng: 144.25 }],
  IS: [{ city: 'Hveragerði', state: 'Southern Region', lat: 64.0, lng: -21.19 }],
};

/** Where buyers and verification bodies sit. */
export const MARKET_COUNTRIES: Readonly<Record<string, readonly string[]>> = {
  DE: ['Berlin', 'Munich', 'Hamburg'],
  FR: ['Paris', 'Lyon'],
  GB: ['London', 'Manchester', 'Edinburgh'],
  NL: ['Amsterdam', 'Rotterdam'],
  SE: ['Stockholm', 'Gothenburg'],
  CH: ['Zurich', 'Geneva', 'Basel'],
  US: ['New York', 'San Francisco', 'Chicago'],
  JP: ['Tokyo', 'Osaka'],
  SG: ['Singapore'],
  NO: ['Oslo'],
  CA: ['Toronto', 'Vancouver'],
  AU: ['Sydney', 'Melbourne'],
  DK: ['Copenhagen'],
  FI: ['Helsinki'],
};

export const LEGAL_SUFFIX: Readonly<Record<string, string>> = {
  DE: 'GmbH', FR: 'SAS', GB: 'Ltd', NL: 'B.V.', SE: 'AB', CH: 'AG', US: 'Inc.', JP: 'K.K.', SG: 'Pte. Ltd.', NO: 'AS',
  CA: 'Inc.', AU: 'Pty Ltd', DK: 'ApS', FI: 'Oy', BR: 'Ltda.', CO: 'S.A.S.', PE: 'S.A.C.', MX: 'S.A. de C.V.', CL: 'SpA',
  GT: 'S.A.', ID: 'PT', IN: 'Pvt. Ltd.', KE: 'Ltd', UG: 'Ltd', TZ: 'Ltd', ET: 'PLC', GH: 'Ltd', NG: 'Ltd', ZM: 'Ltd',
  MZ: 'Lda.', MG: 'SARL', PH: 'Inc.', TH: 'Co., Ltd.', VN: 'JSC', KH: 'Co., Ltd.', BD: 'Ltd', NP: 'Pvt. Ltd.', TR: 'A.Ş.', IS: 'ehf.',
};

export const SECTORS = {
  energy: 'Energy industries (renewable sources)',
  forestry: 'Forestry and land use',
  coastal: 'Coastal and marine ecosystems',
  agriculture: 'Agriculture',
  waste: 'Waste handling and disposal',
  transport: 'Transport',
  households: 'Household energy and devices',
  industry: 'Manufacturing industries',
  'engineered-removal': 'Engineered carbon removal',
} as const;
export type SectorId = keyof typeof SECTORS;

export const PROJECT_TYPES = {
  removal: { title: 'Removal', description: 'Takes carbon dioxide out of the atmosphere and stores it.' },
  avoidance: { title: 'Avoidance', description: 'Prevents emissions that would otherwise have happened.' },
} as const;
export type ProjectTypeId = keyof typeof PROJECT_TYPES;

/** One kind of project: what it is called, what it does and how much it mitigates. */
export interface Archetype {
  name: string;
  sector: SectorId;
  type: ProjectTypeId;
  methodology: { id: string; title: string };
  /** Annual mitigation range, whole tonnes CO2e. */
  annual: readonly [number, number];
  /** Nature-based removals sell forward: they get ex-ante issuances. */
  exAnte: boolean;
  /** Share of each issuance held in the buffer pool, basis points. */
  bufferBasisPoints: number;
  countries: readonly string[];
  /** What the project does, finished by the place. */
  activity: string;
  /** A size phrase for the description. */
  size: (n: number) => string;
}

const TROPICS = ['KE', 'BR', 'ID', 'CO', 'PE', 'MX', 'UG', 'TZ', 'ET', 'GH', 'ZM', 'MZ', 'MG', 'GT', 'KH'];
const COASTS = ['ID', 'VN', 'PH', 'BD', 'MZ', 'MG', 'KE', 'CO', 'MX', 'BR'];
const GRIDS = ['IN', 'VN', 'TR', 'CL', 'MX', 'TH', 'PH', 'BR', 'KE', 'ZM'];
const HOUSEHOLDS = ['KE', 'UG', 'TZ', 'ET', 'GH', 'NG', 'ZM', 'MZ', 'MG', 'IN', 'BD', 'NP', 'KH', 'GT'];

export const ARCHETYPES: readonly Archetype[] = [
  {
    name: 'Reforestation', sector: 'forestry', type: 'removal', exAnte: true, bufferBasisPoints: 2000, annual: [8_000, 90_000],
    methodology: { id: 'RDR-AR-001', title: 'Afforestation, reforestation and revegetation' }, countries: [...TROPICS, 'US', 'CA', 'AU'],
    activity: 'restores native forest on degraded pasture and farmland', size: (n) => `${n * 40} hectares`,
  },
  {
    name: 'REDD+ Forest Conservation', sector: 'forestry', type: 'avoidance', exAnte: false, bufferBasisPoints: 1500, annual: [40_000, 400_000],
    methodology: { id: 'RDR-REDD-002', title: 'Avoided unplanned deforestation and degradation' }, countries: ['BR', 'PE', 'CO', 'ID', 'KH', 'ZM', 'MG', 'GT'],
    activity: 'protects standing tropical forest from agricultural conversion', size: (n) => `${n * 250} hectares`,
  },
  {
    name: 'Mangrove Restoration', sector: 'coastal', type: 'removal', exAnte: true, bufferBasisPoints: 2000, annual: [5_000, 60_000],
    methodology: { id: 'RDR-WRC-003', title: 'Tidal wetland and seagrass restoration' }, countries: COASTS,
    activity: 'replants mangroves along eroded coastline and restores tidal flows', size: (n) => `${n * 12} hectares`,
  },
  {
    name: 'Regenerative Grazing Soil Carbon', sector: 'agriculture', type: 'removal', exAnte: false, bufferBasisPoints: 1500, annual: [10_000, 70_000],
    methodology: { id: 'RDR-SOC-004', title: 'Soil organic carbon in agricultural land' }, countries: ['US', 'AU', 'KE', 'BR', 'CL', 'TZ'],
    activity: 'builds soil carbon through planned rotational grazing', size: (n) => `${n * 300} hectares of rangeland`,
  },
  {
    name: 'Rice Methane Reduction', sector: 'agriculture', type: 'avoidance', exAnte: false, bufferBasisPoints: 500, annual: [6_000, 45_000],
    methodology: { id: 'RDR-AG-005', title: 'Methane reduction through alternate wetting and drying in rice' }, countries: ['VN', 'TH', 'BD', 'IN', 'PH', 'KH'],
    activity: 'cuts paddy methane with alternate wetting and drying', size: (n) => `${n * 20} smallholder farms`,
  },
  {
    name: 'Agroforestry', sector: 'agriculture', type: 'removal', exAnte: true, bufferBasisPoints: 1500, annual: [4_000, 30_000],
    methodology: { id: 'RDR-AGF-006', title: 'Agroforestry systems on smallholder land' }, countries: [...TROPICS, 'IN', 'NP'],
    activity: 'plants shade trees and fruit trees among smallholder crops', size: (n) => `${n * 15} smallholder farms`,
  },
  {
    name: 'Wind Farm', sector: 'energy', type: 'avoidance', exAnte: false, bufferBasisPoints: 500, annual: [50_000, 300_000],
    methodology: { id: 'RDR-RE-010', title: 'Grid-connected electricity from renewable sources' }, countries: GRIDS,
    activity: 'feeds wind power into a coal-heavy grid', size: (n) => `${Math.max(10, Math.round(n / 3))} MW`,
  },
  {
    name: 'Solar Park', sector: 'energy', type: 'avoidance', exAnte: false, bufferBasisPoints: 500, annual: [30_000, 200_000],
    methodology: { id: 'RDR-RE-010', title: 'Grid-connected electricity from renewable sources' }, countries: GRIDS,
    activity: 'feeds solar power into the national grid', size: (n) => `${Math.max(5, Math.round(n / 4))} MWp`,
  },
  {
    name: 'Run-of-River Hydro', sector: 'energy', type: 'avoidance', exAnte: false, bufferBasisPoints: 500, annual: [20_000, 120_000],
    methodology: { id: 'RDR-RE-010', title: 'Grid-connected electricity from renewable sources' }, countries: ['NP', 'IN', 'VN', 'CO', 'PE', 'TR', 'UG'],
    activity: 'generates hydropower without a storage reservoir', size: (n) => `${Math.max(2, Math.round(n / 8))} MW`,
  },
  {
    name: 'Solar Mini-Grids', sector: 'energy', type: 'avoidance', exAnte: false, bufferBasisPoints: 500, annual: [3_000, 25_000],
    methodology: { id: 'RDR-RE-011', title: 'Off-grid renewable electricity for communities' }, countries: HOUSEHOLDS,
    activity: 'replaces diesel generators and kerosene lamps with solar mini-grids', size: (n) => `${n} villages`,
  },
  {
    name: 'Clean Cookstoves', sector: 'households', type: 'avoidance', exAnte: false, bufferBasisPoints: 500, annual: [15_000, 150_000],
    methodology: { id: 'RDR-CS-020', title: 'Thermal energy efficiency in households' }, countries: HOUSEHOLDS,
    activity: 'distributes efficient cookstoves that burn less firewood and charcoal', size: (n) => `${n * 60} households`,
  },
  {
    name: 'Safe Water Filters', sector: 'households', type: 'avoidance', exAnte: false, bufferBasisPoints: 500, annual: [8_000, 60_000],
    methodology: { id: 'RDR-WP-021', title: 'Safe drinking water without boiling' }, countries: HOUSEHOLDS,
    activity: 'provides water filters so that families no longer boil water over wood fires', size: (n) => `${n * 45} households`,
  },
  {
    name: 'Landfill Gas Capture', sector: 'waste', type: 'avoidance', exAnte: false, bufferBasisPoints: 500, annual: [20_000, 180_000],
    methodology: { id: 'RDR-WS-030', title: 'Landfill methane recovery and destruction' }, countries: ['TR', 'MX', 'BR', 'CL', 'IN', 'TH', 'US', 'CO'],
    activity: 'captures and flares landfill methane, generating electricity with part of it', size: (n) => `${n * 4000} tonnes of waste a year`,
  },
  {
    name: 'Organic Waste Composting', sector: 'waste', type: 'avoidance', exAnte: false, bufferBasisPoints: 500, annual: [3_000, 20_000],
    methodology: { id: 'RDR-WS-031', title: 'Aerobic composting of municipal organic waste' }, countries: ['IN', 'ID', 'KE', 'GH', 'NG', 'VN', 'PH'],
    activity: 'diverts market and household organic waste from dumpsites to composting', size: (n) => `${n * 300} tonnes of waste a year`,
  },
  {
    name: 'Biogas Digesters', sector: 'agriculture', type: 'avoidance', exAnte: false, bufferBasisPoints: 500, annual: [5_000, 40_000],
    methodology: { id: 'RDR-AG-032', title: 'Methane recovery from livestock manure' }, countries: ['IN', 'NP', 'VN', 'KE', 'ET', 'BD', 'MX'],
    activity: 'installs household biogas digesters fed with cattle manure', size: (n) => `${n * 25} digesters`,
  },
  {
    name: 'Electric Bus Fleet', sector: 'transport', type: 'avoidance', exAnte: false, bufferBasisPoints: 500, annual: [4_000, 35_000],
    methodology: { id: 'RDR-TR-040', title: 'Electrification of public transport' }, countries: ['CL', 'CO', 'IN', 'MX', 'BR', 'KE'],
    activity: 'replaces diesel buses with battery-electric buses', size: (n) => `${Math.max(10, Math.round(n / 2))} buses`,
  },
  {
    name: 'E-Motorbike Taxis', sector: 'transport', type: 'avoidance', exAnte: false, bufferBasisPoints: 500, annual: [2_000, 15_000],
    methodology: { id: 'RDR-TR-041', title: 'Electric two- and three-wheelers' }, countries: ['KE', 'UG', 'NG', 'GH', 'VN', 'ID', 'PH'],
    activity: 'converts petrol motorbike taxis to battery-swap electric motorbikes', size: (n) => `${n * 8} motorbikes`,
  },
  {
    name: 'Cement Kiln Efficiency', sector: 'industry', type: 'avoidance', exAnte: false, bufferBasisPoints: 500, annual: [25_000, 150_000],
    methodology: { id: 'RDR-IN-060', title: 'Energy efficiency and fuel switch in industrial facilities' }, countries: ['TR', 'IN', 'VN', 'MX', 'NG'],
    activity: 'switches a cement kiln to biomass residues and recovers waste heat', size: (n) => `${n * 2000} tonnes of clinker a year`,
  },
  {
    name: 'Biochar Production', sector: 'engineered-removal', type: 'removal', exAnte: false, bufferBasisPoints: 500, annual: [1_000, 12_000],
    methodology: { id: 'RDR-BC-050', title: 'Biochar carbon removal' }, countries: ['US', 'BR', 'KE', 'IN', 'AU', 'TZ', 'CA'],
    activity: 'pyrolyses crop residues into biochar applied to farmland', size: (n) => `${n * 30} tonnes of biochar a year`,
  },
  {
    name: 'Direct Air Capture and Storage', sector: 'engineered-removal', type: 'removal', exAnte: false, bufferBasisPoints: 300, annual: [200, 4_000],
    methodology: { id: 'RDR-DAC-051', title: 'Direct air capture with geological storage' }, countries: ['IS', 'US', 'CA'],
    activity: 'captures CO2 from ambient air and mineralises it underground', size: (n) => `${Math.max(1, Math.round(n / 50))} capture modules`,
  },
  {
    name: 'Enhanced Rock Weathering', sector: 'engineered-removal', type: 'removal', exAnte: false, bufferBasisPoints: 1000, annual: [1_000, 15_000],
    methodology: { id: 'RDR-ERW-052', title: 'Enhanced weathering of silicate rock on cropland' }, countries: ['US', 'BR', 'IN', 'KE', 'AU'],
    activity: 'spreads crushed basalt on cropland, where it binds CO2 as it weathers', size: (n) => `${n * 100} hectares`,
  },
];

export const PROJECT_NAME_PLACES = ['Valley', 'Highlands', 'Basin', 'Coast', 'Delta', 'Plateau', 'Lowlands', 'Hills', 'River', 'Region'];

export const OTHER_BENEFITS: readonly { id: number; title: string; description: string }[] = [
  { id: 1, title: 'No poverty', description: 'Income for local households from project jobs and revenue sharing.' },
  { id: 3, title: 'Good health and well-being', description: 'Less indoor smoke and cleaner air.' },
  { id: 4, title: 'Quality education', description: 'Training and scholarships funded by credit revenue.' },
  { id: 5, title: 'Gender equality', description: 'Women-led cooperatives run part of the operations.' },
  { id: 6, title: 'Clean water and sanitation', description: 'Protected watersheds and safe drinking water.' },
  { id: 7, title: 'Affordable and clean energy', description: 'Reliable renewable energy for homes and businesses.' },
  { id: 8, title: 'Decent work and economic growth', description: 'Permanent local jobs with fair pay.' },
  { id: 13, title: 'Climate action', description: 'Verified greenhouse-gas mitigation.' },
  { id: 14, title: 'Life below water', description: 'Healthier coastal fisheries and nurseries.' },
  { id: 15, title: 'Life on land', description: 'Habitat for threatened species and restored biodiversity.' },
];

/** Pieces organization names are put together from. */
export const NAME_PARTS = {
  proponentLead: ['Green', 'Terra', 'Blue', 'Rainforest', 'Savanna', 'Highland', 'Sunrise', 'Evergreen', 'Riverstone', 'Canopy', 'Horizon', 'Tidal',
    'Northwind', 'Sahel', 'Andes', 'Lakeside', 'Baobab', 'Monsoon', 'Keystone', 'Verdant', 'Clearwater', 'Solstice', 'Mosaic', 'Ember'],
  proponentCore: ['Carbon', 'Climate', 'Forest', 'Energy', 'Earth', 'Roots', 'Renewables', 'Landscapes', 'Impact', 'Ventures', 'Power', 'Restoration'],
  proponentTail: ['Partners', 'Projects', 'Solutions', 'Holdings', 'Developers', 'Initiative', 'Trust', 'Cooperative', 'Group', 'Alliance'],
  vvbLead: ['Meridian', 'Nordic', 'Atlas', 'Sterling', 'Pacific', 'Continental', 'Alpine', 'Coastal', 'Summit', 'Beacon', 'Granite', 'Compass'],
  vvbCore: ['Assurance', 'Verification', 'Certification', 'Audit', 'Climate Assurance', 'Carbon Audit'],
  vvbTail: ['Services', 'Bureau', 'International', 'Partners', 'Group'],
  buyerLead: ['Helvetia', 'Brightline', 'Northbridge', 'Aurora', 'Silverpeak', 'Bluewave', 'Oakmont', 'Harbor', 'Lumen', 'Crestview', 'Polar',
    'Orion', 'Kestrel', 'Juniper', 'Mistral', 'Cobalt', 'Ironwood', 'Saffron', 'Zephyr', 'Vantage'],
  buyerCore: ['Airlines', 'Logistics', 'Foods', 'Software', 'Bank', 'Insurance', 'Retail', 'Shipping', 'Telecom', 'Pharma', 'Apparel', 'Motors',
    'Hotels', 'Analytics', 'Beverages', 'Packaging'],
};

export const BUYER_INDUSTRIES: Readonly<Record<string, { code: string; name: string }>> = {
  Airlines: { code: 'H51', name: 'Air transport' },
  Logistics: { code: 'H52', name: 'Warehousing and support for transportation' },
  Foods: { code: 'C10', name: 'Manufacture of food products' },
  Software: { code: 'J62', name: 'Computer programming and consultancy' },
  Bank: { code: 'K64', name: 'Financial services' },
  Insurance: { code: 'K65', name: 'Insurance' },
  Retail: { code: 'G47', name: 'Retail trade' },
  Shipping: { code: 'H50', name: 'Water transport' },
  Telecom: { code: 'J61', name: 'Telecommunications' },
  Pharma: { code: 'C21', name: 'Manufacture of pharmaceutical products' },
  Apparel: { code: 'C14', name: 'Manufacture of wearing apparel' },
  Motors: { code: 'C29', name: 'Manufacture of motor vehicles' },
  Hotels: { code: 'I55', name: 'Accommodation' },
  Analytics: { code: 'M70', name: 'Management consultancy' },
  Beverages: { code: 'C11', name: 'Manufacture of beverages' },
  Packaging: { code: 'C17', name: 'Manufacture of paper products' },
};

export const RETIREMENT_REASONS = [
  'Offsetting business travel emissions',
  'Compensation for scope 1 and 2 emissions',
  'Carbon-neutral product line',
  'Customer flight offsets',
  'Annual climate commitment',
  'Event emissions compensation',
  'Net-zero pathway: residual emissions',
  'Voluntary contribution beyond value chain',
];

export const BENEFICIARY_FIRST = ['Anna', 'Luca', 'Amara', 'Kenji', 'Sofia', 'Mateo', 'Priya', 'Jonas', 'Fatima', 'Noah', 'Elena', 'Tariq'];
export const BENEFICIARY_LAST = ['Müller', 'Rossi', 'Okafor', 'Tanaka', 'García', 'Silva', 'Sharma', 'Berg', 'Haddad', 'Smith', 'Novak', 'Khan'];
