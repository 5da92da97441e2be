// Where the demo registry's organizations and projects are: the countries that host projects
// (with a few towns each), those where buyers and verification bodies sit, and each country's
// legal suffix for a company name.

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
  DE: 'GmbH',
  FR: 'SAS',
  GB: 'Ltd',
  NL: 'B.V.',
  SE: 'AB',
  CH: 'AG',
  US: 'Inc.',
  JP: 'K.K.',
  SG: 'Pte. Ltd.',
  NO: 'AS',
  CA: 'Inc.',
  AU: 'Pty Ltd',
  DK: 'ApS',
  FI: 'Oy',
  BR: 'Ltda.',
  CO: 'S.A.S.',
  PE: 'S.A.C.',
  MX: 'S.A. de C.V.',
  CL: 'SpA',
  GT: 'S.A.',
  ID: 'PT',
  IN: 'Pvt. Ltd.',
  KE: 'Ltd',
  UG: 'Ltd',
  TZ: 'Ltd',
  ET: 'PLC',
  GH: 'Ltd',
  NG: 'Ltd',
  ZM: 'Ltd',
  MZ: 'Lda.',
  MG: 'SARL',
  PH: 'Inc.',
  TH: 'Co., Ltd.',
  VN: 'JSC',
  KH: 'Co., Ltd.',
  BD: 'Ltd',
  NP: 'Pvt. Ltd.',
  TR: 'A.Ş.',
  IS: 'ehf.',
};
